import {
  CategoryId,
  NameText,
  PetStatus,
  type Pet,
  type PetFieldChange,
  type PetPatch,
  type PetPatchPath,
} from "@petstore/contract";

/**
 * Applies a JSON Patch to a pet as stored (the coming `updatePet`, docs/decisions/044-pets-that-change.md):
 * the operations in order, `test`s included, so the caller runs it inside the transaction that read the
 * pet and writes the result. Pure: no storage, no clock.
 */

/** What applying a patch comes to. */
export type PatchOutcome =
  /** The pet after the patch, and the fields that moved (none: nothing to write, no event). */
  | { kind: "applied"; pet: Pet; changes: PetFieldChange[] }
  /** A `test` failed (409 CONFLICT): its message names the field, the value stored and the value tested. */
  | { kind: "conflict"; field: PetField; message: string }
  /** The result is not a valid pet (400): each field at fault, as `body[i].value` of the operation that set it. */
  | { kind: "invalid"; issues: Array<{ field: string; message: string }> }
  /** Out of `sold` without scope admin (403 FORBIDDEN). */
  | { kind: "forbidden"; message: string };

type PetField = "name" | "categoryId" | "status";
type FieldValue = string | number | null;

const FIELD_OF: Record<PetPatchPath, PetField> = { "/name": "name", "/categoryId": "categoryId", "/status": "status" };
const FIELDS: readonly PetField[] = ["name", "categoryId", "status"];

export const RETURN_FROM_SOLD_MESSAGE =
  "Only an admin can return a sold pet: a key or session with scope admin may move it out of sold.";

/** The stored value of a field as a patch sees it: `null` for an absent status. */
const valueOf = (pet: Pet, field: PetField): FieldValue => (field === "status" ? (pet.status ?? null) : pet[field]);

const shown = (value: FieldValue) => (value === null ? "no status" : JSON.stringify(value));

/** What a tested value is compared as: a name trimmed, as names are stored. */
const asTested = (field: PetField, value: FieldValue): FieldValue =>
  field === "name" && typeof value === "string" ? value.trim() : value;

export interface PatchOptions {
  /** The caller's scope covers `admin`: only then may a pet leave `sold`. */
  mayReturnSold: boolean;
}

export function applyPetPatch(stored: Pet, patch: PetPatch, { mayReturnSold }: PatchOptions): PatchOutcome {
  const values: Record<PetField, FieldValue> = {
    name: stored.name,
    categoryId: stored.categoryId,
    status: stored.status ?? null,
  };
  /** The operation that last set each field, to name it in a 400. */
  const setBy: Partial<Record<PetField, number>> = {};
  for (const [index, operation] of patch.entries()) {
    const field = FIELD_OF[operation.path];
    switch (operation.op) {
      case "test": {
        const tested = asTested(field, operation.value);
        if (tested !== values[field]) {
          return { kind: "conflict", field, message: `${field} is ${shown(values[field])}, not ${shown(tested)}` };
        }
        break;
      }
      case "replace":
      case "add":
        // A name set is held trimmed, as it will be stored: a later `test` in the patch compares with that.
        values[field] = asTested(field, operation.value);
        setBy[field] = index;
        break;
      case "remove":
        values.status = null;
        setBy.status = index;
        break;
    }
  }

  const issues: Array<{ field: string; message: string }> = [];
  const check = (field: PetField, schema: typeof NameText | typeof CategoryId | typeof PetStatus) => {
    if (field === "status" && values.status === null) return;
    const parsed = schema.safeParse(values[field]);
    if (parsed.success) {
      values[field] = parsed.data as FieldValue;
    } else {
      const where = setBy[field] === undefined ? `body.${field}` : `body[${setBy[field]}].value`;
      issues.push({
        field: where,
        message:
          field === "status"
            ? `status must be one of available, pending, sold, or null for no status`
            : parsed.error.issues[0]!.message,
      });
    }
  };
  check("name", NameText);
  check("categoryId", CategoryId);
  check("status", PetStatus);
  if (issues.length > 0) return { kind: "invalid", issues };

  if (stored.status === "sold" && values.status !== "sold" && !mayReturnSold)
    return { kind: "forbidden", message: RETURN_FROM_SOLD_MESSAGE };

  const pet: Pet = { id: stored.id, name: values.name as string, categoryId: values.categoryId as number };
  if (values.status !== null) pet.status = values.status as Pet["status"] & string;
  const changes = FIELDS.filter((field) => valueOf(stored, field) !== values[field]).map((field) => ({
    field,
    from: valueOf(stored, field),
    to: values[field],
  }));
  return { kind: "applied", pet, changes };
}
