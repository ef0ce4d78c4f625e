import type { Pet, PetPatch, PetPatchOperation, PetStatus } from "@petstore/contract";

/**
 * The JSON Patches (updatePet, beyond the spec) the app sends. Each one first `test`s what staff saw, so a
 * change someone else made meanwhile fails the patch (409) instead of being overwritten.
 */

/** A button that moves a pet to one status, and the words it is announced with. */
export interface StatusAction {
  /** The button's name. */
  label: "Reserve" | "Mark sold" | "Mark available";
  to: PetStatus;
  /** "Reserved Rex.": what happened, for one pet. */
  done: (name: string) => string;
}

export const STATUS_ACTIONS: readonly StatusAction[] = [
  { label: "Reserve", to: "pending", done: (name) => `Reserved ${name}.` },
  { label: "Mark sold", to: "sold", done: (name) => `Marked ${name} sold.` },
  { label: "Mark available", to: "available", done: (name) => `Marked ${name} available.` },
];

/** Only an admin may move a pet out of `sold` (the API answers 403 to anyone else). */
export const ONLY_ADMIN_RETURNS_SOLD = "Only an admin can return a sold pet.";

/**
 * The status buttons a pet shows: every move but to the status it has. A sold pet shows none to a session
 * that may not return it.
 */
export function statusActionsFor(status: PetStatus | undefined, mayReturnSold: boolean): StatusAction[] {
  if (status === "sold" && !mayReturnSold) return [];
  return STATUS_ACTIONS.filter((action) => action.to !== status);
}

/** On `/status`, JSON null stands for "no status". */
function statusValue(status: PetStatus | undefined): PetStatus | null {
  return status ?? null;
}

/** Tests that the status is still `shown` (none: null), then sets it to `to`. */
export function statusChangePatch(shown: PetStatus | undefined, to: PetStatus | undefined): PetPatch {
  return [
    { op: "test", path: "/status", value: statusValue(shown) },
    { op: "replace", path: "/status", value: statusValue(to) },
  ];
}

/** A pet's three fields, as a form shows and edits them. */
export type PetFields = Pick<Pet, "name" | "categoryId" | "status">;

/**
 * The edit form's patch: tests every field it showed (`shown`), then replaces those staff changed.
 * Null when nothing changed: there is nothing to send.
 */
export function editPatch(shown: PetFields, edited: PetFields): PetPatch | null {
  const replaces: PetPatchOperation[] = [];
  if (edited.name !== shown.name) replaces.push({ op: "replace", path: "/name", value: edited.name });
  if (edited.categoryId !== shown.categoryId)
    replaces.push({ op: "replace", path: "/categoryId", value: edited.categoryId });
  if (edited.status !== shown.status)
    replaces.push({ op: "replace", path: "/status", value: statusValue(edited.status) });
  if (replaces.length === 0) return null;
  return [
    { op: "test", path: "/name", value: shown.name },
    { op: "test", path: "/categoryId", value: shown.categoryId },
    { op: "test", path: "/status", value: statusValue(shown.status) },
    ...replaces,
  ];
}
