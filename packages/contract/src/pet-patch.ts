import { z } from "zod";

/**
 * The body of `updatePet` (beyond the spec; not yet an operation of the contract): a JSON Patch
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
/** A JSON value a field may be compared with or set to: a string, a number, or null (no status). */
const value = z.union([z.string(), z.number(), z.null()], {
  errorMap: () => ({ message: "value must be a string, a number or null" }),
});

export const PetPatchOperation = z.discriminatedUnion(
  "op",
  [
    z.object({ op: z.literal("test"), path, value }).strict(),
    z.object({ op: z.literal("replace"), path, value }).strict(),
    z.object({ op: z.literal("add"), path, value }).strict(),
    z.object({ op: z.literal("remove"), path: z.literal("/status", { errorMap: () => ({ message: "remove applies to /status only" }) }) }).strict(),
  ],
  { errorMap: (issue, ctx) => (issue.code === "invalid_union_discriminator" ? { message: "op must be test, replace, add or remove" } : { message: ctx.defaultError }) },
);
export type PetPatchOperation = z.infer<typeof PetPatchOperation>;

export const PetPatch = z
  .array(PetPatchOperation)
  .min(1, "a patch has at least one operation")
  .max(PET_PATCH_MAX_OPERATIONS, `a patch has at most ${PET_PATCH_MAX_OPERATIONS} operations`)
  .describe("A JSON Patch (RFC 6902) of a pet: test, replace and add on /name, /categoryId and /status; remove on /status.");
export type PetPatch = z.infer<typeof PetPatch>;

/** One field a change moved: its value before and after (`null` for an absent status). */
export const PetFieldChange = z
  .object({
    field: z.enum(["name", "categoryId", "status"]),
    from: z.union([z.string(), z.number(), z.null()]),
    to: z.union([z.string(), z.number(), z.null()]),
  })
  .describe("A field a change moved, with its value before and after (null: no status).");
export type PetFieldChange = z.infer<typeof PetFieldChange>;
