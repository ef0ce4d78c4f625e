-- The webhook outbox becomes one row per event (fanned out to endpoints by the sender, off the
-- request path), so a change with several endpoints registered writes one row, not one per
-- endpoint. The id is a plain INTEGER PRIMARY KEY (the rowid, no AUTOINCREMENT): rows live
-- only until fanned out, nothing outside refers to them, and it spares every change a write
-- to sqlite_sequence.

-- CreateTable
CREATE TABLE "WebhookEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY,
    "eventId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
