import type { ErrorIssue } from "@petstore/contract";
import type { ZodIssue } from "zod";

/** One message per field, keyed by the contract's field name. */
export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/**
 * The contract's messages name the JSON field ("categoryId must be at least 1");
 * beside a control labelled "Category ID" the label reads better.
 */
function inLabelTerms(field: string, label: string, message: string): string {
  return message.startsWith(field) ? label + message.slice(field.length) : message;
}

/**
 * The schema's message, except where zod's own is a validator's ("Invalid enum value. Expected
 * 'available' | 'pending' | 'sold', received 'x'"): a choice names its values as a sentence would.
 */
function inWords(field: string, issue: ZodIssue): string {
  if (issue.code !== "invalid_enum_value") return issue.message;
  const options = issue.options.map(String);
  const choices = options.length > 1 ? `${options.slice(0, -1).join(", ")} or ${options.at(-1)}` : (options[0] ?? "");
  return `${field} must be ${choices}`;
}

function isField<Field extends string>(labels: Record<Field, string>, value: unknown): value is Field {
  return typeof value === "string" && Object.hasOwn(labels, value);
}

/** The first problem the contract's schema found with each form field, in the words of its label. */
export function fieldErrorsFromSchema<Field extends string>(
  issues: readonly ZodIssue[],
  labels: Record<Field, string>,
): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (isField(labels, field) && errors[field] === undefined)
      errors[field] = inLabelTerms(field, labels[field], inWords(field, issue));
  }
  return errors;
}

/** Field errors out of the API's 400 `issues` (`body.<field>`); issues about anything else stay with the whole form. */
export function fieldErrorsFromApiIssues<Field extends string>(
  issues: readonly ErrorIssue[],
  labels: Record<Field, string>,
): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  for (const { field: where, message } of issues) {
    const field = where.startsWith("body.") ? where.slice("body.".length) : undefined;
    if (isField(labels, field) && errors[field] === undefined)
      errors[field] = inLabelTerms(field, labels[field], message);
  }
  return errors;
}
