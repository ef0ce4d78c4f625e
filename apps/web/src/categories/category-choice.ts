import type { Category } from "@petstore/contract";

/** The select's value for `Other id…`: an id no category names, typed in `Category ID`. */
export const OTHER_CATEGORY = "other";
export const OTHER_CATEGORY_LABEL = "Other id…";

/** Which of a pet form's category controls show. */
export interface CategoryControls {
  /** `Category`: the named categories and `Other id…`. */
  select: boolean;
  /** `Category ID`: the number field. */
  idField: boolean;
}

/**
 * The controls for a form's `categoryId`. Without named categories (none yet, not read yet, or not
 * readable) only `Category ID` shows, as before categories had names. Otherwise `Category`, and
 * `Category ID` beside it when `Other id…` was chosen (`other` true), or, before any choice (`other`
 * undefined), when the form started from an id no category names (`startingId`, as the form opened: what
 * is typed in `Category ID` afterwards does not hide it).
 */
export function categoryControls(
  categories: readonly Category[] | undefined,
  startingId: string,
  other: boolean | undefined,
): CategoryControls {
  if (!categories || categories.length === 0) return { select: false, idField: true };
  if (other !== undefined) return { select: true, idField: other };
  const text = startingId.trim();
  return { select: true, idField: text !== "" && !categories.some((category) => String(category.id) === text) };
}

/** What the form's `categoryId` becomes when `choice` is picked in `Category`: `Other id…` keeps an id typed, not a named one. */
export function categoryIdAfterChoice(categories: readonly Category[], categoryId: string, choice: string): string {
  if (choice !== OTHER_CATEGORY) return choice;
  const named = categories.some((category) => String(category.id) === categoryId.trim());
  return named ? "" : categoryId;
}

/**
 * Digits become a number for the schema to range-check; anything else is
 * passed through as typed so the schema itself says what is wrong with it.
 */
export function categoryIdInput(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}
