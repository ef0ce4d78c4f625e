-- One event log (docs/decisions/053-one-event-log.md): every pet.* and key.* event, whether or not an
-- endpoint subscribes, in a table of its own that the feed (listEvents), the streams, recovery and the
-- webhook fan-out all read. It supersedes the outbox "WebhookEvent" (decision 023), dropped below.
-- Ids are handed out before commit, so id order is not the order events become visible: each row
-- keeps its transaction's id ("xid", xid8), and readers take only events whose transaction is below
-- their snapshot's xmin, in ("xid", "id") order: an event's position. The key is that order, so a
-- create maintains one index, and the feed reads a range of it.
CREATE TABLE "Event" (
    "xid" xid8 NOT NULL DEFAULT pg_current_xact_id(),
    "id" BIGSERIAL NOT NULL,
    "eventId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "data" TEXT NOT NULL,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("xid", "id")
);

-- One row: how far the webhook fan-out has read the log, and how far retention has purged it (a feed
-- position at or below it is 410).
CREATE TABLE "EventLog" (
    "id" INTEGER NOT NULL CHECK ("id" = 1),
    "fanOutXid" xid8 NOT NULL,
    "fanOutId" BIGINT NOT NULL,
    "purgedXid" xid8 NOT NULL,
    "purgedId" BIGINT NOT NULL,

    CONSTRAINT "EventLog_pkey" PRIMARY KEY ("id")
);
INSERT INTO "EventLog" ("id", "fanOutXid", "fanOutId", "purgedXid", "purgedId") VALUES (1, '0', 0, '0', 0);

-- The events the senders had not fanned out yet move into the log, in their order, and the fan-out starts
-- from the log's beginning, so none is lost and none is sent twice.
INSERT INTO "Event" ("eventId", "type", "createdAt", "data")
SELECT "eventId", "eventType", "createdAt", "data" FROM "WebhookEvent" ORDER BY "id";
DROP TABLE "WebhookEvent";
DROP TABLE "WebhookFanOut";

-- Recovery (recoverWebhook) asks, per event of a window, whether the endpoint has a delivery of it.
CREATE INDEX "WebhookDelivery_webhookId_eventId_idx" ON "WebhookDelivery"("webhookId", "eventId");
