import { PET_STATUSES, type Pet, type PetPatch } from "@petstore/contract";
import { useEffect, useRef, useState } from "react";
import { CategoryField } from "../categories/CategoryField.js";
import { useCategories } from "../categories/category-names.js";
import { Button } from "../design-system/Button.js";
import { SelectField, TextField } from "../design-system/FormFields.js";
import { useContractForm } from "../forms/use-contract-form.js";
import { EDIT_PET_FIELDS, editFormValues, validateEditedPet } from "./edit-pet-form.js";
import { editPatch, ONLY_ADMIN_RETURNS_SOLD, type PetFields } from "./pet-patches.js";
import formStyles from "../design-system/Form.module.css";
import styles from "./PetDetailPage.module.css";

/**
 * `Edit`: the pet's three fields, as the page showed them when the form opened (its category by name, or
 * `Other id…` and `Category ID` for an id no category names). `Save changes` sends a
 * patch that tests each of those values (so someone else's change meanwhile is a conflict, not
 * overwritten) and replaces the ones changed; with none changed, nothing is sent.
 */
export function EditPetForm({
  pet,
  mayReturnSold,
  saving,
  onSave,
  onNothingChanged,
  onCancel,
}: {
  pet: Pet;
  mayReturnSold: boolean;
  saving: boolean;
  onSave: (patch: PetPatch) => void;
  onNothingChanged: () => void;
  onCancel: () => void;
}) {
  // What the form showed: its tests compare with these, whatever the page has read since.
  const [shown] = useState<PetFields>(() => ({ name: pet.name, categoryId: pet.categoryId, status: pet.status }));
  const { values, update, field, fieldErrors, handleSubmit } = useContractForm({
    initial: () => editFormValues(shown),
    fields: EDIT_PET_FIELDS,
    validate: validateEditedPet,
  });
  const name = useRef<HTMLInputElement>(null);
  const { categories } = useCategories();
  const soldForGood = shown.status === "sold" && !mayReturnSold;

  useEffect(() => {
    name.current?.focus();
  }, []);

  const save = (edited: PetFields) => {
    const patch = editPatch(shown, edited);
    if (patch) onSave(patch);
    else onNothingChanged();
  };

  return (
    <form className={formStyles.form} onSubmit={handleSubmit(save)} noValidate aria-label={`Edit ${shown.name}`}>
      <TextField ref={name} label="Name" {...field("name")} autoComplete="off" />
      <CategoryField
        categories={categories}
        categoryId={values.categoryId}
        onChange={update("categoryId")}
        error={fieldErrors.categoryId}
        idHint="The category's id: a whole number, 1 or more."
      />
      <SelectField label="Status" {...field("status")} hint={soldForGood ? ONLY_ADMIN_RETURNS_SOLD : undefined}>
        {soldForGood ? (
          <option value="sold">sold</option>
        ) : (
          <>
            <option value="">No status</option>
            {PET_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </>
        )}
      </SelectField>
      <div className={styles.actions}>
        <Button
          type="submit"
          aria-disabled={saving || undefined}
          aria-busy={saving || undefined}
          onClick={(event) => saving && event.preventDefault()}
        >
          Save changes
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
