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

-- The horizon of the log's readers: every event whose "xid" is below it has committed (or rolled back)
-- and is visible to the calling statement, so nothing can appear later behind what they read. It is the
-- statement snapshot's oldest transaction still running, leaving out those pg_stat_activity shows in
-- another database (they cannot write here): a long write transaction of another database on the same
-- server then holds nothing back. A transaction it cannot place (another role's, without
-- pg_read_all_stats, or one that ended since the snapshot) counts, as the snapshot's xmin would.
-- STABLE: it sees the calling statement's snapshot.
CREATE FUNCTION "event_horizon"() RETURNS xid8 LANGUAGE sql STABLE AS $$
  SELECT coalesce(min("running"), pg_snapshot_xmax(pg_current_snapshot()))
  FROM pg_snapshot_xip(pg_current_snapshot()) AS "running"
  WHERE NOT EXISTS (
    SELECT 1 FROM pg_stat_activity AS "a"
    WHERE "a"."backend_xid"::text::bigint = "running"::text::bigint % 4294967296
      AND "a"."datid" <> (SELECT "oid" FROM pg_database WHERE "datname" = current_database()))
$$;

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
