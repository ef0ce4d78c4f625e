import { z } from "zod";

/** Largest id a JSON number carries exactly; ids are int64 in storage. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 20;
export const NAME_MAX_LENGTH = 100;
/**
 * Longest `Error.message` the API sends (the spec sets none). A validation
 * message names every field at fault and may quote what was sent, so the API
 * cuts a longer one to this length, ending it with "…".
 */
export const ERROR_MESSAGE_MAX_LENGTH = 1000;
/** Most `issues` one Error carries; each issue's `field` and `message` are bounded too. */
export const ERROR_ISSUES_MAX = 20;
export const ERROR_ISSUE_FIELD_MAX_LENGTH = 100;
export const ERROR_ISSUE_MESSAGE_MAX_LENGTH = 300;

export const PetStatus = z.enum(["available", "pending", "sold"]).describe("Availability status of an animal.");
export type PetStatus = z.infer<typeof PetStatus>;
export const PET_STATUSES = PetStatus.options;

/** A positive int64 that JSON can carry exactly. */
export const positiveSafeInteger = (field: string) =>
  z
    .number({
      required_error: `${field} is required`,
      invalid_type_error: `${field} must be an integer`,
    })
    .int(`${field} must be an integer`)
    .min(1, `${field} must be at least 1`)
    .max(MAX_ID, `${field} must be at most ${MAX_ID}`);

/**
 * Query and path values arrive as strings. Only plain decimal digits name a
 * number: `7.0`, `7e0`, `0x7`, ` 7` and `-1` are rejected instead of being
 * coerced the way `Number()` would. A number is accepted too so that typed
 * clients can pass one; it is serialised to its decimal string on the wire.
 *
 * No `.transform` on this path: every zod transform builds a context object
 * with a getter per parse, which V8 makes slowly (measured: 4 µs of a 4.5 µs
 * parse of `{ petId }`, ~12 µs per getPet in the server's profile). The digits
 * (or the number) go on to a coercing copy of `inner`, whose `Number()` is
 * exact once the regex has passed, and whose checks give the same messages.
 */
export const decimalInteger = (field: string, inner: z.ZodNumber) =>
  z
    .union(
      [
        // Strings first: that is what every request carries; numbers come from typed clients.
        z.string().regex(/^[0-9]+$/, `${field} must be a decimal integer`),
        z.number(),
      ],
      {
        errorMap: (issue, ctx) =>
          issue.code === "invalid_union"
            ? { message: `${field} must be a decimal integer` }
            : { message: ctx.defaultError },
      },
    )
    .pipe(new z.ZodNumber({ ...inner._def, coerce: true }));

export const PetId = positiveSafeInteger("id").describe("Unique identifier, assigned by the service on creation.");

/**
 * What a name may hold, as one regex (`NAME_PATTERN`), the same for every name
 * the API stores (a pet's, a key's) and for the `name` search: well-formed
 * UTF-16, and neither control characters nor bidirectional formatting characters.
 *
 * - C0 and C1 control characters (U+0000-U+001F, U+007F-U+009F): PostgreSQL
 *   text cannot hold U+0000 at all; the others have no place in a name either.
 * - Bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A-U+202E,
 *   U+2066-U+2069): they reorder what follows, so a name would display as
 *   another in the admin app and the activity log ("Rex\u202Eexe.gnp").
 * - A surrogate only as half of a pair, high then low: an unpaired one (the
 *   JSON `"\ud800"`) is not text; PostgreSQL's driver refuses it (it was a 500).
 *
 * Written in UTF-16 code units, so it means the same with or without the `u`
 * flag (a pair is one code point with it, two units without), and it is the
 * OpenAPI `pattern` of every name as it is: zod-to-JSON-Schema copies
 * `.source`. The schemas test it on the trimmed name; the document's readers
 * test it on the value as sent, so it also allows JavaScript's whitespace
 * (`\s`, exactly what `trim()` removes, tab and newline included) before and
 * after, and requires nothing of it inside (`a\tb` stays refused). The name
 * itself starts and ends with a character `trim()` keeps: that pins where the
 * padding stops, so a refused value costs a linear amount of backtracking, not
 * a quadratic one. It allows the empty string: `min(1)` reports that, with its
 * own message.
 */
const REFUSED = String.raw`\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069`;
const SURROGATE_PAIR = String.raw`[\ud800-\udbff][\udc00-\udfff]`;
/** Any character a name may hold, whitespace included. */
const NAME_CHARACTER = String.raw`(?:[^${REFUSED}\ud800-\udfff]|${SURROGATE_PAIR})`;
/** A character a name may hold that `trim()` would not remove. */
const NAME_EDGE = String.raw`(?:[^\s${REFUSED}\ud800-\udfff]|${SURROGATE_PAIR})`;
export const NAME_PATTERN = new RegExp(String.raw`^\s*(?:${NAME_EDGE}(?:${NAME_CHARACTER}*${NAME_EDGE})?)?\s*$`);
export const NAME_CHARACTERS_MESSAGE =
  "name must not contain control characters, bidirectional formatting characters or unpaired surrogates";

/**
 * Every name the API stores, and the `name` search: trimmed, 1..100 UTF-16
 * code units after trimming, and the characters of `NAME_PATTERN`. Checks
 * only, no effect (docs/decisions/019-no-zod-effects-on-the-request-path.md):
 * `trim` is a check that rewrites the value in place.
 */
export const NameText = z
  .string({
    required_error: "name is required",
    invalid_type_error: "name must be a string",
  })
  .trim()
  .min(1, "name must not be empty")
  .max(NAME_MAX_LENGTH, `name must be at most ${NAME_MAX_LENGTH} characters`)
  .regex(NAME_PATTERN, NAME_CHARACTERS_MESSAGE);

export const PetName = NameText.describe("The animal's name.");

export const CategoryId = positiveSafeInteger("categoryId").describe(
  "Identifier of the category the animal belongs to.",
);

/** Request body of createPet. Unknown fields are stripped, never stored. */
export const NewPet = z
  .object({
    name: PetName,
    categoryId: CategoryId,
    status: PetStatus.optional(),
  })
  .strip()
  .describe("Request body for creating an animal.");
export type NewPet = z.infer<typeof NewPet>;

export const Pet = z
  .object({
    id: PetId,
    name: PetName,
    categoryId: CategoryId,
    status: PetStatus.optional(),
  })
  .describe("An animal as returned: the fields of NewPet plus its id.");
export type Pet = z.infer<typeof Pet>;

/** At most LIMIT_MAX: no page of listPets is longer. */
export const Pets = z.array(Pet).max(LIMIT_MAX).describe("A page of animals, in ascending id order.");
export type Pets = z.infer<typeof Pets>;

export const ErrorCode = z
  .enum([
    "UNAUTHORIZED",
    "VALIDATION_ERROR",
    "NOT_FOUND",
    "METHOD_NOT_ALLOWED",
    "PAYLOAD_TOO_LARGE",
    "REQUEST_TIMEOUT",
    "UNSUPPORTED_MEDIA_TYPE",
    "RATE_LIMITED",
    "INTERNAL",
    "UNAVAILABLE",
    /** `/readyz` only, from SIGTERM on: the process is draining and will exit; the balancer should stop sending it requests. */
    "SHUTTING_DOWN",
    "IDEMPOTENCY_KEY_REUSED",
    "IDEMPOTENCY_KEY_IN_USE",
    // A valid key whose scope does not cover the operation (staff access).
    "FORBIDDEN",
    // The request conflicts with the resource's state: a webhook delivery being sent when it is resent.
    "CONFLICT",
    // What was asked for existed and was purged: an event log position older than the oldest event kept.
    "GONE",
  ])
  .describe("Machine-readable error code.");
export type ErrorCode = z.infer<typeof ErrorCode>;
export const ERROR_CODES = ErrorCode.options;

/**
 * One field at fault in a 400: `field` says where (`body.name`, `query.limit`,
 * `path.petId`), `message` what is wrong. Clients place these beside their inputs.
 */
export const ErrorIssue = z
  .object({
    field: z
      .string()
      .max(ERROR_ISSUE_FIELD_MAX_LENGTH)
      .describe("Where: `body`, `body.<field>`, `query.<name>`, `path.<name>` or `header.<name>`."),
    message: z.string().max(ERROR_ISSUE_MESSAGE_MAX_LENGTH).describe("What is wrong with it."),
  })
  .describe("One field at fault in a 400 (extension).");
export type ErrorIssue = z.infer<typeof ErrorIssue>;

export const ErrorBody = z
  .object({
    code: ErrorCode,
    message: z.string().max(ERROR_MESSAGE_MAX_LENGTH).describe("Human-readable description."),
    status: z.number().int().min(400).max(599).describe("The HTTP status code of the response."),
    /** Extension: present on VALIDATION_ERROR answers that can name fields. */
    issues: z
      .array(ErrorIssue)
      .max(ERROR_ISSUES_MAX)
      .optional()
      .describe("Extension: each field at fault, on a `VALIDATION_ERROR` that can name them."),
  })
  .describe("Every error response: the condition in `code`, words for people in `message`, and the HTTP status.");
export type ErrorBody = z.infer<typeof ErrorBody>;

/** `limit` of a listing: a decimal integer 1..100 in the query, 20 when absent (the spec's listPets; the activity log alike). */
export const PageLimit = decimalInteger(
  "limit",
  z
    .number()
    .int()
    .min(LIMIT_MIN, `limit must be at least ${LIMIT_MIN}`)
    .max(LIMIT_MAX, `limit must be at most ${LIMIT_MAX}`),
)
  // A default, not `.optional().transform(...)` (see decimalInteger on transforms); given as the query would
  // carry it, so it takes the union's first branch: a failed branch costs an issue object.
  .default(String(LIMIT_DEFAULT));

export const ListPetsQuery = z
  .object({
    limit: PageLimit,
    status: PetStatus.optional(),
    /** Keyset pagination (extension): only pets with an id greater than this. */
    after: decimalInteger("after", z.number().int().min(0).max(MAX_ID, `after must be at most ${MAX_ID}`)).optional(),
    /**
     * Name search (extension): only pets with a word of the name that starts with
     * this, ignoring case and accents (several words: consecutive words, from a
     * word's start). The same rule as a pet's name (`NameText`).
     */
    name: PetName.optional(),
    /** Category filter (extension, "The store at a glance"): only pets with this `categoryId`. */
    categoryId: decimalInteger("categoryId", positiveSafeInteger("categoryId")).optional(),
    /** The page just below this id (extension), still in ascending order; not with `after`. */
    before: decimalInteger(
      "before",
      z.number().int().min(1, "before must be at least 1").max(MAX_ID, `before must be at most ${MAX_ID}`),
    ).optional(),
    /** `true` (extension): the answer carries `X-Total-Count`, the number of pets matching the filters. */
    count: z.enum(["true", "false"], { errorMap: () => ({ message: "count must be true or false" }) }).optional(),
  })
  .strip()
  // A check, not a transform: the output stays the object's (see decimalInteger on transforms).
  .superRefine((query, ctx) => {
    if (query.after !== undefined && query.before !== undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["before"],
        message: "before and after cannot be used together",
      });
    }
  });
/** What a client sends. */
export type ListPetsQueryInput = z.input<typeof ListPetsQuery>;
/** What the server works with after parsing (limit defaulted). */
export type ListPetsQuery = z.output<typeof ListPetsQuery>;

export const GetPetParams = z.object({
  petId: decimalInteger("petId", positiveSafeInteger("petId")),
});

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * The `Idempotency-Key` of a create (IETF httpapi Idempotency-Key draft):
 * 1..255 printable ASCII characters. Spaces may appear inside but not at
 * either end, where HTTP would strip them anyway.
 */
export const IdempotencyKey = z
  .string()
  .min(1, "Idempotency-Key must not be empty")
  .max(IDEMPOTENCY_KEY_MAX_LENGTH, `Idempotency-Key must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`)
  .regex(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/, "Idempotency-Key must be printable ASCII characters");

/** Request headers of createPet. Header names arrive lower-cased. */
export const CreatePetHeaders = z.object({
  "idempotency-key": IdempotencyKey.optional(),
});

/** A body-less POST (revoking a key, ending a session, ...); an empty JSON object is accepted too. */
export const EmptyBody = z.object({}).strip().optional();
