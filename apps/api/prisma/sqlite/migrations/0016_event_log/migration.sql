-- One event log (docs/decisions/053-one-event-log.md): every pet.* and key.* event, whether or not an
-- endpoint subscribes, in a table of its own that the feed (listEvents), the streams, recovery and the
-- webhook fan-out all read. It supersedes SQLite's outbox in "AuditEvent" (decision 023): its
-- "webhookEventId" and "webhookData" stay, null from now on. SQLite hands out ids under its one write
-- lock, so id order is commit order: an event's position is its id.
CREATE TABLE "Event" (
    "id" INTEGER NOT NULL PRIMARY KEY,
    "eventId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "data" TEXT NOT NULL
);

-- One row: how far the webhook fan-out has read the log, and how far retention has purged it (a feed
-- position at or below it is 410). "fanOutXid" and "purgedXid" are PostgreSQL's; 0 here.
CREATE TABLE "EventLog" (
    "id" INTEGER NOT NULL PRIMARY KEY CHECK ("id" = 1),
    "fanOutXid" BIGINT NOT NULL,
    "fanOutId" BIGINT NOT NULL,
    "purgedXid" BIGINT NOT NULL,
    "purgedId" BIGINT NOT NULL
);
INSERT INTO "EventLog" ("id", "fanOutXid", "fanOutId", "purgedXid", "purgedId") VALUES (1, 0, 0, 0, 0);

-- The events the senders had not fanned out yet move into the log, in their order, and the fan-out starts
-- from the log's beginning, so none is lost and none is sent twice.
INSERT INTO "Event" ("eventId", "type", "createdAt", "data")
SELECT "webhookEventId", "action", "at", "webhookData" FROM "AuditEvent"
WHERE "webhookEventId" IS NOT NULL AND "id" > (SELECT "lastAuditEventId" FROM "WebhookFanOut" WHERE "id" = 1)
ORDER BY "id";
UPDATE "WebhookFanOut" SET "lastAuditEventId" = (SELECT coalesce(max("id"), 0) FROM "AuditEvent") WHERE "id" = 1;

-- Recovery (recoverWebhook) asks, per event of a window, whether the endpoint has a delivery of it.
CREATE INDEX "WebhookDelivery_webhookId_eventId_idx" ON "WebhookDelivery"("webhookId", "eventId");
