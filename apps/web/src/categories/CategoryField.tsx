import type { Category } from "@petstore/contract";
import { useState } from "react";
import { SelectField, TextField } from "../design-system/FormFields.js";
import { categoryControls, categoryIdAfterChoice, OTHER_CATEGORY, OTHER_CATEGORY_LABEL } from "./category-choice.js";

/** What the select says when nothing is chosen yet and the form's own check finds it empty. */
export const CHOOSE_A_CATEGORY = "Choose a category.";

/**
 * A pet form's category: `Category`, a select of the named categories and `Other id…`; choosing `Other id…`
 * (or starting from an id no category names) shows the number field `Category ID`. Without named
 * categories, `Category ID` alone. Whichever control holds the id is named `categoryId`, so the form's
 * error and its focus-the-first-problem go to it.
 */
export function CategoryField({
  categories,
  categoryId,
  onChange,
  error,
  idHint,
  placeholder,
}: {
  /** The store's categories; undefined while they are read or when they could not be. */
  categories: readonly Category[] | undefined;
  /** The form's value, as typed or chosen. */
  categoryId: string;
  onChange: (categoryId: string) => void;
  error: string | undefined;
  /** Under `Category ID`: what it takes. */
  idHint: string;
  /** The select's first option when nothing is chosen yet (a new pet): e.g. `Choose a category`. */
  placeholder?: string;
}) {
  const [other, setOther] = useState<boolean | undefined>(undefined);
  const [startingId] = useState(categoryId);
  const controls = categoryControls(categories, startingId, other);
  const idField = (
    <TextField
      label="Category ID"
      name="categoryId"
      inputMode="numeric"
      autoComplete="off"
      value={categoryId}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      hint={idHint}
    />
  );
  if (!controls.select || !categories) return idField;
  return (
    <>
      <SelectField
        label="Category"
        name={controls.idField ? "category" : "categoryId"}
        value={controls.idField ? OTHER_CATEGORY : categoryId.trim()}
        onChange={(event) => {
          const choice = event.target.value;
          setOther(choice === OTHER_CATEGORY);
          onChange(categoryIdAfterChoice(categories, categoryId, choice));
        }}
        error={controls.idField ? undefined : error && categoryId.trim() === "" ? CHOOSE_A_CATEGORY : error}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {categories.map((category) => (
          <option key={category.id} value={String(category.id)}>
            {category.name}
          </option>
        ))}
        <option value={OTHER_CATEGORY}>{OTHER_CATEGORY_LABEL}</option>
      </SelectField>
      {controls.idField && idField}
    </>
  );
}
