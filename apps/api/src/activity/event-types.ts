import { randomUUID } from "node:crypto";

// The events the log keeps and the webhooks carry (events/event-log.ts): which audit actions they are, and their ids.

/** The event types an endpoint may subscribe to. `webhook.test` is sent by `sendTestEvent` only. */
export const WEBHOOK_EVENT_TYPES = [
  "pet.created",
  "pet.updated",
  "pet.deleted",
  "pet.restored",
  "key.created",
  "key.revoked",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | "webhook.test";

/** A change's audit action that is also a webhook event type, or undefined. */
export const webhookEventTypeOf = (action: string): WebhookEventType | undefined =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(action) ? (action as WebhookEventType) : undefined;

/** The `webhook-id` of a new event: unique per event, the same on every retry and every endpoint. */
export const newWebhookEventId = (): string => `msg_${randomUUID().replaceAll("-", "")}`;
