import { NewApiKey, Scope, type ErrorIssue } from "@petstore/contract";
import { fieldErrorsFromApiIssues, fieldErrorsFromSchema, type FieldErrors } from "../forms/contract-field-errors.js";

/** What the form's controls hold: text, as typed; `expiresAt` is a date input's `YYYY-MM-DD`, or empty. */
export interface NewKeyFormValues {
  name: string;
  scope: string;
  expiresAt: string;
}

export type NewKeyField = keyof NewKeyFormValues;
export type NewKeyFieldErrors = FieldErrors<NewKeyField>;

const FIELD_LABELS: Record<NewKeyField, string> = { name: "Name", scope: "Scope", expiresAt: "Expires" };
export const NEW_KEY_FIELDS = Object.keys(FIELD_LABELS) as NewKeyField[];

/**
 * A key set to expire on a day works through that day, in the time zone of
 * whoever chose it: it expires at the midnight that ends the day. Anything
 * but a date input's `YYYY-MM-DD` is passed on for the schema to refuse.
 */
export function expiresAtOfDay(day: string): string | undefined {
  if (day.trim() === "") return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const [, year, month, date] = match.map(Number) as [number, number, number, number];
  return new Date(year, month - 1, date + 1).toISOString();
}

export type NewKeyValidation = { success: true; data: NewApiKey } | { success: false; errors: NewKeyFieldErrors };

/** Checks the form with the contract's own `NewApiKey` schema, the rules the API applies. */
export function validateNewKey(values: NewKeyFormValues): NewKeyValidation {
  const scope = Scope.safeParse(values.scope);
  const expiresAt = expiresAtOfDay(values.expiresAt);
  const result = NewApiKey.safeParse({
    name: values.name,
    scope: scope.success ? scope.data : values.scope,
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  });
  return result.success
    ? { success: true, data: result.data }
    : { success: false, errors: fieldErrorsFromSchema(result.error.issues, FIELD_LABELS) };
}

export function keyFieldErrorsFromIssues(issues: readonly ErrorIssue[]): NewKeyFieldErrors {
  return fieldErrorsFromApiIssues(issues, FIELD_LABELS);
}
