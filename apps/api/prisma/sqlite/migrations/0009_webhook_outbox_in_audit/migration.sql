-- On SQLite the webhook outbox moves into the activity log's own row: an event's webhook-id and
-- JSON ride in "AuditEvent" (null when no enabled endpoint subscribed), and the senders fan the
-- rows after a cursor out to deliveries. A "WebhookEvent" row of its own cost each create one
-- more page in its commit, 7 % of createPet (docs/decisions/023-webhooks.md). SQLite hands out
-- ids under its one write lock, so id order is commit order and a cursor never skips an event.
-- "WebhookEvent" stays (the models are shared with PostgreSQL, whose outbox it is) and is empty.

-- AlterTable: nullable columns, so no rebuild and the append-only triggers stay as they are.
ALTER TABLE "AuditEvent" ADD COLUMN "webhookEventId" TEXT;
ALTER TABLE "AuditEvent" ADD COLUMN "webhookData" TEXT;

-- CreateTable: one row, the last audit event id the senders have fanned out.
CREATE TABLE "WebhookFanOut" (
    "id" INTEGER NOT NULL PRIMARY KEY CHECK ("id" = 1),
    "lastAuditEventId" BIGINT NOT NULL
);
INSERT INTO "WebhookFanOut" ("id", "lastAuditEventId") SELECT 1, coalesce(max("id"), 0) FROM "AuditEvent";

-- The events still waiting in the old outbox are fanned out now, as a sender would have
-- (to the endpoints subscribed and registered no later than the event).
INSERT INTO "WebhookDelivery" ("webhookId", "eventId", "eventType", "data", "createdAt", "nextAttemptAt")
SELECT "e"."id", "v"."eventId", "v"."eventType", "v"."data", "v"."createdAt", "v"."createdAt"
FROM "WebhookEvent" AS "v" JOIN "WebhookEndpoint" AS "e"
  ON "e"."enabled" AND "e"."createdAt" <= "v"."createdAt" AND ("e"."eventTypes" = '' OR (' ' || "e"."eventTypes" || ' ') LIKE ('% ' || "v"."eventType" || ' %'))
ORDER BY "v"."id", "e"."id";
DELETE FROM "WebhookEvent";
