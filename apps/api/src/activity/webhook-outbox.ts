import { randomUUID } from "node:crypto";

/** The event types an endpoint may subscribe to. `webhook.test` is sent by `sendTestEvent` only. */
export const WEBHOOK_EVENT_TYPES = ["pet.created", "key.created", "key.revoked"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | "webhook.test";

/** A change's audit action that is also a webhook event type, or undefined. */
export const webhookEventTypeOf = (action: string): WebhookEventType | undefined =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(action) ? (action as WebhookEventType) : undefined;

/** The `webhook-id` of a new event: unique per event, the same on every retry and every endpoint. */
export const newWebhookEventId = (): string => `msg_${randomUUID().replaceAll("-", "")}`;

/**
 * The SQL condition (both providers) that an endpoint, as a row of "WebhookEndpoint" (no alias), takes
 * events of the type whose `LIKE` pattern is the one parameter (`subscriptionPattern`): enabled, and
 * subscribed to every type (eventTypes empty) or to this one (eventTypes is space-separated).
 */
export const SUBSCRIBED_ENDPOINT = `"enabled" AND ("eventTypes" = '' OR (' ' || "eventTypes" || ' ') LIKE`;
export const subscriptionPattern = (type: WebhookEventType): string => `% ${type} %`;

/**
 * The outbox holds an event only when some enabled endpoint subscribes to its type (this condition,
 * after `WHERE` or `SELECT`, then `subscriptionPattern` as its parameter and `))`): a change writes
 * it once however many endpoints there are, and not at all when nobody listens. On PostgreSQL it is
 * a "WebhookEvent" row; on SQLite, two columns of the change's own audit row (decision 023).
 */
export const ANY_SUBSCRIBER = `EXISTS (SELECT 1 FROM "WebhookEndpoint" WHERE ${SUBSCRIBED_ENDPOINT} `;

/**
 * The fan-out (both providers): a delivery per event of `events` (a table of "WebhookEvent"'s columns,
 * aliased "v"; the caller may add a `WHERE` on it) and endpoint subscribed to it now and registered no
 * later than it happened, due at once. An event whose endpoints were all deleted before its fan-out
 * goes nowhere, and an endpoint registered since never gets it, however long the senders were stopped.
 * Run by the senders, never on a request's path, in the transaction that takes those events out of the
 * outbox (deletes them on PostgreSQL, moves the cursor past them on SQLite).
 */
export const fanOutEvents = (events: string): string => `
  INSERT INTO "WebhookDelivery" ("webhookId", "eventId", "eventType", "data", "createdAt", "nextAttemptAt")
  SELECT "e"."id", "v"."eventId", "v"."eventType", "v"."data", "v"."createdAt", "v"."createdAt"
  FROM ${events} AS "v" JOIN "WebhookEndpoint" AS "e"
    ON "e"."enabled" AND "e"."createdAt" <= "v"."createdAt" AND ("e"."eventTypes" = '' OR (' ' || "e"."eventTypes" || ' ') LIKE ('% ' || "v"."eventType" || ' %'))`;

/** How many events one fan-out takes at most. */
export const FAN_OUT_BATCH = 200;
