import { CategoryRename, NewCategory, type ErrorIssue } from "@petstore/contract";
import { fieldErrorsFromApiIssues, fieldErrorsFromSchema, type FieldErrors } from "../forms/contract-field-errors.js";
import { categoryIdInput } from "./category-choice.js";

/** What `Add category`'s fields hold: text, as typed. */
export interface NewCategoryFormValues {
  name: string;
  id: string;
}

export type NewCategoryField = keyof NewCategoryFormValues;
export type NewCategoryFieldErrors = FieldErrors<NewCategoryField>;

const FIELD_LABELS: Record<NewCategoryField, string> = { name: "Name", id: "ID" };
export const NEW_CATEGORY_FIELDS = Object.keys(FIELD_LABELS) as NewCategoryField[];
export const EMPTY_CATEGORY_FORM: NewCategoryFormValues = { name: "", id: "" };

/** The contract's id messages say `categoryId`; beside the field labelled `ID`, they say that. */
function inIdTerms(errors: NewCategoryFieldErrors): NewCategoryFieldErrors {
  const id = errors.id?.replace(/^categoryId\b/, FIELD_LABELS.id);
  return id === undefined ? errors : { ...errors, id };
}

export type NewCategoryValidation =
  { success: true; data: NewCategory } | { success: false; errors: NewCategoryFieldErrors };

/** Checks the form with the contract's own `NewCategory`: an empty `ID` is left out (the API picks the next id). */
export function validateNewCategory(values: NewCategoryFormValues): NewCategoryValidation {
  const id = categoryIdInput(values.id);
  const result = NewCategory.safeParse({ name: values.name, ...(id === undefined ? {} : { id }) });
  if (result.success) return { success: true, data: result.data };
  return { success: false, errors: inIdTerms(fieldErrorsFromSchema(result.error.issues, FIELD_LABELS)) };
}

/** Field errors out of the API's 400 `issues` (`body.name`, `body.id`). */
export function newCategoryFieldErrorsFromIssues(issues: readonly ErrorIssue[]): NewCategoryFieldErrors {
  return inIdTerms(fieldErrorsFromApiIssues(issues, FIELD_LABELS));
}

/** The rename form's one field. */
export const RENAME_LABEL = "New name";

export type RenameValidation = { success: true; data: CategoryRename } | { success: false; error: string };

/** Checks a new name with the contract's own `CategoryRename`, its message in the words of the field's label. */
export function validateRename(name: string): RenameValidation {
  const result = CategoryRename.safeParse({ name });
  if (result.success) return { success: true, data: result.data };
  return {
    success: false,
    error: fieldErrorsFromSchema(result.error.issues, { name: RENAME_LABEL }).name ?? "The name is not valid.",
  };
}

/** The message of a rename the API refused with `issues` (400), for the field; undefined when none names it. */
export function renameErrorFromIssues(issues: readonly ErrorIssue[]): string | undefined {
  return fieldErrorsFromApiIssues(issues, { name: RENAME_LABEL }).name;
}
