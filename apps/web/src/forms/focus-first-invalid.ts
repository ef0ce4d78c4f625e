import type { FieldErrors } from "./contract-field-errors.js";

/**
 * Takes keyboard and screen-reader users straight to the first thing to fix:
 * the control named after the first of `fields` (in form order) that has an error.
 */
export function focusFirstInvalid<Field extends string>(
  form: HTMLFormElement,
  fields: readonly Field[],
  errors: FieldErrors<Field>,
): void {
  const firstInvalid = fields.find((field) => errors[field] !== undefined);
  const control = firstInvalid && form.elements.namedItem(firstInvalid);
  if (control instanceof HTMLElement) control.focus();
}
