-- Operators keep their data: backups, restore, retention (docs/decisions/043-backups-restore-retention.md).

-- Every API process writes its row every 5 s and deletes it when it closes: `restore` refuses a
-- target with a beat newer than 15 s, naming the host, so it never swaps a database under a server.
CREATE TABLE "ApiHeartbeat" (
    "id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "beatAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ApiHeartbeat_pkey" PRIMARY KEY ("id")
);

-- Work one replica does at a time (scheduled backups, the daily retention purge): a lease, and when it last ran.
CREATE TABLE "JobLease" (
    "name" TEXT NOT NULL,
    "holder" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "lastRunAt" TIMESTAMP(3),

    CONSTRAINT "JobLease_pkey" PRIMARY KEY ("name")
);

-- The activity log stays append-only, but for retention: a DELETE goes through only for a row older
-- than 90 days (a floor fixed here, below any ACTIVITY_RETENTION_DAYS the API accepts). UPDATE, any
-- other DELETE and TRUNCATE still raise, for the API's own role too. "at" is UTC without a zone.
-- No semicolon outside statement ends (the adapter's migrate splits on them): \073 inside the body.
CREATE OR REPLACE FUNCTION "AuditEvent_append_only"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN IF TG_OP = ''DELETE'' THEN IF OLD."at" < (now() AT TIME ZONE ''UTC'') - interval ''90 days'' THEN RETURN OLD\073 END IF\073 END IF\073 RAISE EXCEPTION ''AuditEvent is append-only: only rows older than 90 days may be deleted''\073 END';
