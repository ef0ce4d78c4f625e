import { randomUUID } from "node:crypto";

/** The event types an endpoint may subscribe to. `webhook.test` is sent by `sendTestEvent` only. */
export const WEBHOOK_EVENT_TYPES = ["pet.created", "pet.updated", "pet.deleted", "pet.restored", "key.created", "key.revoked"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | "webhook.test";

/** A change's audit action that is also a webhook event type, or undefined. */
export const webhookEventTypeOf = (action: string): WebhookEventType | undefined =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(action) ? (action as WebhookEventType) : undefined;

/** The `webhook-id` of a new event: unique per event, the same on every retry and every endpoint. */
export const newWebhookEventId = (): string => `msg_${randomUUID().replaceAll("-", "")}`;

/** The `LIKE` pattern `anySubscriber` matches a type's subscribers with (eventTypes is space-separated). */
export const subscriptionPattern = (type: WebhookEventType): string => `% ${type} %`;

/**
 * The SQL condition (both providers) that some endpoint takes events of the type whose
 * `subscriptionPattern` is at `pattern` (a placeholder's text): enabled, and subscribed to every type
 * (eventTypes empty) or to this one. The outbox holds an event only then: a change writes it once
 * however many endpoints there are, and not at all when nobody listens. On PostgreSQL it is a
 * "WebhookEvent" row; on SQLite, two columns of the change's own audit row (decision 023).
 */
export const anySubscriber = (pattern: string): string =>
  `EXISTS (SELECT 1 FROM "WebhookEndpoint" WHERE "enabled" AND ("eventTypes" = '' OR (' ' || "eventTypes" || ' ') LIKE ${pattern}))`;
