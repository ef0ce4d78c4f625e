import { z } from "zod";
import { DATE_TIME_MAX_LENGTH, KeyLabel } from "./access-schemas.js";
import { LIMIT_MAX, MAX_ID, NAME_MAX_LENGTH, NAME_PATTERN, PageLimit, Pet } from "./schemas.js";

/**
 * The body of `updatePet` (beyond the spec): a JSON Patch
 * (RFC 6902) of 1..10 operations on a pet's three fields. `test`, `replace` and `add` on `/name`,
 * `/categoryId` and `/status`; `remove` on `/status` only (a pet always has a name and a category).
 * On `/status`, JSON `null` stands for "no status". The values are checked when the patch is applied
 * (the result must be a valid pet; a `test` compares), so this schema checks the operations' shape.
 */
export const PET_PATCH_MAX_OPERATIONS = 10;
export const PET_PATCH_PATHS = ["/name", "/categoryId", "/status"] as const;
export type PetPatchPath = (typeof PET_PATCH_PATHS)[number];

const path = z.enum(PET_PATCH_PATHS, {
  errorMap: () => ({ message: `path must be one of ${PET_PATCH_PATHS.join(", ")}` }),
});
/**
 * A value a field may be compared with or set to: a string with a name's characters (a name or a status; bounded
 * here, the name rule applies when it is set), a number, or null (no status).
 */
export const PATCH_STRING_MAX_LENGTH = 1000;
const patchString = z
  .string()
  .max(PATCH_STRING_MAX_LENGTH, `value must be at most ${PATCH_STRING_MAX_LENGTH} characters`)
  .regex(NAME_PATTERN, "value must not contain control or bidirectional formatting characters");
// null rides on the string branch: OpenAPI 3.0 takes `nullable` only beside a `type`.
const value = z.union([patchString.nullable(), z.number()], {
  errorMap: () => ({ message: "value must be a string, a number or null" }),
});

export const PetPatchOperation = z.discriminatedUnion(
  "op",
  [
    z.object({ op: z.literal("test"), path, value }).strict(),
    z.object({ op: z.literal("replace"), path, value }).strict(),
    z.object({ op: z.literal("add"), path, value }).strict(),
    z
      .object({
        op: z.literal("remove"),
        path: z.literal("/status", { errorMap: () => ({ message: "remove applies to /status only" }) }),
      })
      .strict(),
  ],
  {
    errorMap: (issue, ctx) =>
      issue.code === "invalid_union_discriminator"
        ? { message: "op must be test, replace, add or remove" }
        : { message: ctx.defaultError },
  },
);
export type PetPatchOperation = z.infer<typeof PetPatchOperation>;

export const PetPatch = z
  .array(PetPatchOperation)
  .min(1, "a patch has at least one operation")
  .max(PET_PATCH_MAX_OPERATIONS, `a patch has at most ${PET_PATCH_MAX_OPERATIONS} operations`)
  .describe(
    "A JSON Patch (RFC 6902) of a pet: test, replace and add on /name, /categoryId and /status; remove on /status.",
  );
export type PetPatch = z.infer<typeof PetPatch>;

/** A field's value in a change: a name, a category id, a status, or null (no status). */
const fieldValue = z.union([
  z.string().max(NAME_MAX_LENGTH).regex(NAME_PATTERN).nullable(),
  z.number().int().min(1).max(MAX_ID),
]);

/** One field a change moved: its value before and after (`null` for an absent status). */
export const PetFieldChange = z
  .object({
    field: z.enum(["name", "categoryId", "status"]),
    from: fieldValue,
    to: fieldValue,
  })
  .describe("A field a change moved, with its value before and after (null: no status).");
export type PetFieldChange = z.infer<typeof PetFieldChange>;

/** `after` of the listings beyond the spec: an opaque cursor, the one a `Link rel="next"` carries. */
export const CURSOR_MAX_LENGTH = 100;
export const PageCursor = z
  .string()
  .min(1, "after must not be empty")
  .max(CURSOR_MAX_LENGTH, `after must be at most ${CURSOR_MAX_LENGTH} characters`)
  .regex(/^[A-Za-z0-9_-]+$/, "after must be a cursor from a Link header")
  .describe('Where the page starts: the opaque cursor of the previous page\'s `Link rel="next"`.');

export const PetPageQuery = z.object({ limit: PageLimit, after: PageCursor.optional() }).strip();
export type PetPageQueryInput = z.input<typeof PetPageQuery>;
export type PetPageQuery = z.output<typeof PetPageQuery>;

const at = z.string().max(DATE_TIME_MAX_LENGTH).datetime({ offset: true });

/** A deleted pet, kept until `purgeAt`: restorable until then with its id and fields. */
export const DeletedPet = z
  .object({
    pet: Pet,
    deletedAt: at,
    /** A person's or key's name; null for a caller below scope `write`. */
    deletedBy: KeyLabel.nullable(),
    purgeAt: at,
  })
  .describe(
    "A deleted pet: the pet as it was, when and by whom it was deleted (null for callers below `write`), and when it is purged for good.",
  );
export type DeletedPet = z.infer<typeof DeletedPet>;
export const DeletedPets = z.array(DeletedPet).max(LIMIT_MAX).describe("Deleted pets, the latest deletion first.");

export const PET_CHANGE_ACTIONS = ["pet.created", "pet.updated", "pet.deleted", "pet.restored"] as const;
export const PetChangeAction = z.enum(PET_CHANGE_ACTIONS).describe("What happened to the pet.");
export type PetChangeAction = z.infer<typeof PetChangeAction>;

/** One entry of a pet's history: what was done, when, by whom, and the fields it moved. */
export const PetChange = z
  .object({
    at,
    action: PetChangeAction,
    by: z.object({
      kind: z.enum(["staff", "key", "system"]),
      /** A person's or key's name; null for a caller below scope `write`. */
      name: KeyLabel.nullable(),
    }),
    changes: z.array(PetFieldChange).max(3),
  })
  .describe(
    "An entry of a pet's history: when, what, who (a person, a key or the system; the name is null for callers below `write`) and the fields it moved.",
  );
export type PetChange = z.infer<typeof PetChange>;
export const PetChanges = z.array(PetChange).max(LIMIT_MAX).describe("A pet's history, newest first.");
