-- Operators keep their data: backups, restore, retention (docs/decisions/043-backups-restore-retention.md).

-- Every API process writes its row every 5 s and deletes it when it closes: `restore` refuses a
-- target with a beat newer than 15 s, naming the host, so it never swaps a database under a server.
CREATE TABLE "ApiHeartbeat" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "beatAt" DATETIME NOT NULL
);

-- Work one replica does at a time (scheduled backups, the daily retention purge): a lease, and when it last ran.
CREATE TABLE "JobLease" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT,
    "leaseUntil" DATETIME,
    "lastRunAt" DATETIME
);

-- The activity log stays append-only, but for retention: a DELETE goes through only for a row older
-- than 90 days (a floor fixed here, below any ACTIVITY_RETENTION_DAYS the API accepts). Timestamps are
-- stored as Prisma writes them ("2026-11-28T09:45:00.123+00:00"), so text order is time order.
DROP TRIGGER "AuditEvent_no_delete";
CREATE TRIGGER "AuditEvent_no_delete" BEFORE DELETE ON "AuditEvent"
    WHEN OLD."at" >= strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now', '-90 days')
BEGIN SELECT RAISE(ABORT, 'AuditEvent is append-only: only rows older than 90 days may be deleted'); END;
