import { NewWebhook, WEBHOOK_EVENT_TYPES, type ErrorIssue, type WebhookEventType } from "@petstore/contract";
import { fieldErrorsFromApiIssues, fieldErrorsFromSchema, type FieldErrors } from "../forms/contract-field-errors.js";

/** What the form's controls hold: the URL and description as typed, and the event types checked. */
export interface NewWebhookFormValues {
  url: string;
  description: string;
  eventTypes: readonly WebhookEventType[];
}

export type NewWebhookField = keyof NewWebhookFormValues;
export type NewWebhookFieldErrors = FieldErrors<NewWebhookField>;

const FIELD_LABELS: Record<NewWebhookField, string> = {
  url: "Endpoint URL",
  description: "Description",
  eventTypes: "Events",
};
export const NEW_WEBHOOK_FIELDS = Object.keys(FIELD_LABELS) as NewWebhookField[];

export const EMPTY_WEBHOOK_FORM: NewWebhookFormValues = { url: "", description: "", eventTypes: [] };

/** The checked types in the contract's order, whatever order they were checked in. */
export function toggleEventType(
  checked: readonly WebhookEventType[],
  type: WebhookEventType,
  on: boolean,
): WebhookEventType[] {
  const next = new Set(checked);
  if (on) next.add(type);
  else next.delete(type);
  return WEBHOOK_EVENT_TYPES.filter((candidate) => next.has(candidate));
}

export type NewWebhookValidation =
  { success: true; data: NewWebhook } | { success: false; errors: NewWebhookFieldErrors };

/**
 * Checks the form with the contract's own `NewWebhook` schema, the rules the
 * API applies (whether the host is one the API may reach, only the API can
 * tell). An empty description is left out; no type checked sends every type.
 */
export function validateNewWebhook(values: NewWebhookFormValues): NewWebhookValidation {
  const result = NewWebhook.safeParse({
    url: values.url.trim(),
    ...(values.description.trim() !== "" ? { description: values.description } : {}),
    ...(values.eventTypes.length > 0 ? { eventTypes: values.eventTypes } : {}),
  });
  return result.success
    ? { success: true, data: result.data }
    : { success: false, errors: fieldErrorsFromSchema(result.error.issues, FIELD_LABELS) };
}

export function webhookFieldErrorsFromIssues(issues: readonly ErrorIssue[]): NewWebhookFieldErrors {
  return fieldErrorsFromApiIssues(issues, FIELD_LABELS);
}

/** An endpoint's event types as a list reads them: none means every type. */
export function describeEventTypes(eventTypes: readonly WebhookEventType[]): string {
  return eventTypes.length === 0 ? "All events" : eventTypes.join(", ");
}
