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
 * C0 and C1 control characters (U+0000-U+001F, U+007F-U+009F). PostgreSQL text
 * cannot hold U+0000 at all; the others have no place in a name either. Refused
 * the same way on both providers, by the form, the import and the search alike.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;

export const PetName = z
  .string({
    required_error: "name is required",
    invalid_type_error: "name must be a string",
  })
  .trim()
  .min(1, "name must not be empty")
  .max(NAME_MAX_LENGTH, `name must be at most ${NAME_MAX_LENGTH} characters`)
  .regex(NO_CONTROL_CHARACTERS, "name must not contain control characters")
  .describe("The animal's name.");

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
     * Name search (extension): only pets whose name starts with this, ignoring
     * case and accents. The same rule as a pet's name: 1..100 characters after
     * trimming, no control characters.
     */
    name: PetName.optional(),
  })
  .strip();
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
