import type { ErrorIssue } from "@petstore/contract";
import { useState, type ChangeEvent, type FormEvent } from "react";
import { describeFailure, errorBodyOf } from "../api/api-errors.js";
import type { FieldErrors } from "./contract-field-errors.js";
import { focusFirstInvalid } from "./focus-first-invalid.js";

/** What a form's `validate` says: the contract's parsed body, or the first problem with each field. */
export type ContractValidation<Field extends string, Data> =
  { success: true; data: Data } | { success: false; errors: FieldErrors<Field> };

/** The fields whose controls hold text (inputs, selects), which `field` can wire. */
type TextField<Values> = { [F in keyof Values]: Values[F] extends string ? F : never }[keyof Values] & string;

export interface ContractFormOptions<Values extends object, Data> {
  /** The controls' first values (or a function that makes them, once); `reset` goes back to them. */
  initial: Values | (() => Values);
  /** The fields in form order: after a refused submit the focus goes to the first one with an error (by control name). */
  fields: readonly (keyof Values & string)[];
  /** Checks the values with the contract's own schema before anything is sent. */
  validate: (values: Values) => ContractValidation<keyof Values & string, Data>;
  /** Field errors out of the API's 400 `issues`; without it every failure stays with the whole form. */
  fieldErrorsFromIssues?: (issues: readonly ErrorIssue[]) => FieldErrors<keyof Values & string>;
}

/**
 * The state every form of the app keeps the same way: its values, an error beside each field, an error for
 * the whole form (shown in an alert), and a submit that validates with the contract's schema first (a
 * refused one focuses the first invalid field, and sends nothing).
 */
export function useContractForm<Values extends object, Data>({
  initial,
  fields,
  validate,
  fieldErrorsFromIssues,
}: ContractFormOptions<Values, Data>) {
  type Field = keyof Values & string;
  const [initialValues] = useState<Values>(initial);
  const [values, setValues] = useState<Values>(initialValues);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<Field>>({});
  const [formError, setFormError] = useState<string | null>(null);

  // From the current state, not the render's: two fields filled before a re-render (autofill, a fast script) must both stick.
  const update =
    <F extends Field>(field: F) =>
    (value: Values[F]) =>
      setValues((current) => ({ ...current, [field]: value }));

  /**
   * A text field's control, wired: its name (what the focus on an error looks for), value, change and error,
   * to spread on a TextField or SelectField: `<TextField label="Name" {...field("name")} />`.
   */
  const field = <F extends TextField<Values>>(name: F) => ({
    name,
    value: values[name] as string,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      update(name)(event.target.value as Values[F]),
    error: fieldErrors[name],
  });

  /** The form's `onSubmit`: the alert goes, the values are checked, and `send` gets the contract's body when they pass. */
  const handleSubmit = (send: (data: Data) => void) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    const validation = validate(values);
    if (!validation.success) {
      setFieldErrors(validation.errors);
      focusFirstInvalid(event.currentTarget, fields, validation.errors);
      return;
    }
    setFieldErrors({});
    send(validation.data);
  };

  /**
   * The API refused or failed: a 400 whose issues name fields puts them beside those fields; anything else
   * is said in the form's alert, `whatFailed` ("The key was not created.") followed by the reason.
   */
  const showFailure = (error: unknown, whatFailed: string) => {
    const body = errorBodyOf(error);
    const serverErrors = body?.status === 400 && fieldErrorsFromIssues ? fieldErrorsFromIssues(body.issues ?? []) : {};
    if (Object.keys(serverErrors).length > 0) setFieldErrors(serverErrors);
    else setFormError(`${whatFailed} ${describeFailure(error)}`);
  };

  return {
    values,
    setValues,
    update,
    field,
    fieldErrors,
    formError,
    handleSubmit,
    showFailure,
    /** Back to the first values, e.g. once what they made is saved. */
    reset: () => setValues(initialValues),
  };
}
