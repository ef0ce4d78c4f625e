import type { Pet } from "@petstore/contract";
import { fieldErrorsFromSchema, type FieldErrors } from "../forms/contract-field-errors.js";
import { parseNewPetValues, type NewPetFormValues } from "./new-pet-form.js";
import type { PetFields } from "./pet-patches.js";

/** The edit form's controls: text, as typed (`status` "" is no status). */
export type EditPetFormValues = NewPetFormValues;
export type EditPetField = keyof EditPetFormValues;
export type EditPetFieldErrors = FieldErrors<EditPetField>;

const FIELD_LABELS: Record<EditPetField, string> = { name: "Name", categoryId: "Category ID", status: "Status" };
export const EDIT_PET_FIELDS = Object.keys(FIELD_LABELS) as EditPetField[];

/** The form's starting values: the pet as shown. */
export function editFormValues(pet: PetFields): EditPetFormValues {
  return { name: pet.name, categoryId: String(pet.categoryId), status: pet.status ?? "" };
}

export type EditPetValidation = { success: true; data: PetFields } | { success: false; errors: EditPetFieldErrors };

/** Checks the edited values with the contract's own pet rules (NewPet), the labels' words in its messages. */
export function validateEditedPet(values: EditPetFormValues): EditPetValidation {
  const result = parseNewPetValues(values);
  if (!result.success) return { success: false, errors: fieldErrorsFromSchema(result.error.issues, FIELD_LABELS) };
  const { name, categoryId, status } = result.data;
  return { success: true, data: { name, categoryId, status } };
}

/** "name Rex, category 1, status sold": a pet's fields in one line, as a conflict shows what it is now. */
export function describePetFields(pet: Pick<Pet, "name" | "categoryId" | "status">): string {
  return `name ${pet.name}, category ${pet.categoryId}, status ${pet.status ?? "none"}`;
}
