import { type ErrorIssue, NewPet, PetStatus } from "@petstore/contract";
import { categoryIdInput } from "../categories/category-choice.js";
import { fieldErrorsFromApiIssues, fieldErrorsFromSchema, type FieldErrors } from "../forms/contract-field-errors.js";

/** What the form's controls hold: text, as typed. */
export interface NewPetFormValues {
  name: string;
  categoryId: string;
  status: string;
}

export type NewPetField = keyof NewPetFormValues;
export type NewPetFieldErrors = FieldErrors<NewPetField>;

export const NEW_PET_FIELD_LABELS: Record<NewPetField, string> = {
  name: "Name",
  categoryId: "Category ID",
  status: "Status",
};
export const NEW_PET_FIELDS = Object.keys(NEW_PET_FIELD_LABELS) as NewPetField[];

export type NewPetValidation = { success: true; data: NewPet } | { success: false; errors: NewPetFieldErrors };

/** Text values, as typed or read from a CSV row, through the contract's own `NewPet` schema. */
export function parseNewPetValues(values: NewPetFormValues) {
  const status = PetStatus.safeParse(values.status);
  return NewPet.safeParse({
    name: values.name,
    categoryId: categoryIdInput(values.categoryId),
    ...(values.status === "" ? {} : { status: status.success ? status.data : values.status }),
  });
}

/** Checks the form with the contract's own `NewPet` schema: the rules the API applies, not a copy of them. */
export function validateNewPet(values: NewPetFormValues): NewPetValidation {
  const result = parseNewPetValues(values);
  if (result.success) return { success: true, data: result.data };
  return { success: false, errors: fieldErrorsFromSchema(result.error.issues, NEW_PET_FIELD_LABELS) };
}

/** Field errors out of the API's 400 `issues` (`body.<field>`); issues about anything else stay with the whole form. */
export function fieldErrorsFromIssues(issues: readonly ErrorIssue[]): NewPetFieldErrors {
  return fieldErrorsFromApiIssues(issues, NEW_PET_FIELD_LABELS);
}
