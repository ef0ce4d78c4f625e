-- Pets that change: corrections, deletion with restore, history (docs/decisions/045-pets-that-change.md).

-- A deleted pet moves here, out of "Pet", in the transaction that deletes it: listPets, getPet and the
-- name search read "Pet" exactly as before, with nothing to skip. Its id is the pet's own ("Pet" is
-- AUTOINCREMENT, so no new pet ever takes it), and restorePet moves it back with it.
CREATE TABLE "DeletedPet" (
    "id" INTEGER NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "categoryId" BIGINT NOT NULL,
    "status" TEXT CHECK ("status" IN ('available', 'pending', 'sold')),
    "createdAt" DATETIME NOT NULL,
    "nameKey" TEXT,
    "deletedAt" DATETIME NOT NULL,
    "deletedBy" TEXT NOT NULL
);
CREATE INDEX "DeletedPet_deletedAt_id_idx" ON "DeletedPet"("deletedAt", "id");

-- AuditEvent, rebuilt (SQLite cannot alter a CHECK; DROP TABLE fires no trigger, and the triggers are
-- made again as 0011 left them): the pet actions join its CHECK, and "changes" holds the fields a
-- pet's change moved (listPetHistory). Ids are kept, so the webhook fan-out's cursor stays valid.
CREATE TABLE "new_AuditEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL CHECK ("action" IN ('pet.created', 'key.created', 'key.revoked', 'webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.secret_rotated', 'staff.invited', 'staff.signed_in', 'key.signed_in', 'staff.role_changed', 'staff.disabled', 'passkey.added', 'passkey.removed', 'session.ended', 'pet.updated', 'pet.deleted', 'pet.restored', 'pet.purged')),
    "actorKeyId" TEXT,
    "actorStaffId" BIGINT,
    "actorName" TEXT NOT NULL,
    "targetType" TEXT NOT NULL CHECK ("targetType" IN ('pet', 'key', 'webhook', 'staff')),
    "targetId" BIGINT NOT NULL,
    "targetLabel" TEXT NOT NULL,
    "detail" TEXT,
    "requestId" TEXT,
    "clientAddress" TEXT,
    "webhookEventId" TEXT,
    "webhookData" TEXT,
    "changes" TEXT,
    -- A key (or the operator command, or the retention job) or a person.
    CHECK ("actorKeyId" IS NOT NULL OR "actorStaffId" IS NOT NULL)
);
INSERT INTO "new_AuditEvent" ("id", "at", "action", "actorKeyId", "actorStaffId", "actorName", "targetType", "targetId", "targetLabel", "detail", "requestId", "clientAddress", "webhookEventId", "webhookData")
SELECT "id", "at", "action", "actorKeyId", "actorStaffId", "actorName", "targetType", "targetId", "targetLabel", "detail", "requestId", "clientAddress", "webhookEventId", "webhookData" FROM "AuditEvent";
DROP TABLE "AuditEvent";
ALTER TABLE "new_AuditEvent" RENAME TO "AuditEvent";
CREATE INDEX "AuditEvent_action_id_idx" ON "AuditEvent"("action", "id");
CREATE INDEX "AuditEvent_targetType_targetId_id_idx" ON "AuditEvent"("targetType", "targetId", "id");
CREATE TRIGGER "AuditEvent_no_update" BEFORE UPDATE ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'AuditEvent is append-only'); END;
CREATE TRIGGER "AuditEvent_no_delete" BEFORE DELETE ON "AuditEvent"
    WHEN OLD."at" >= strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now', '-90 days')
BEGIN SELECT RAISE(ABORT, 'AuditEvent is append-only: only rows older than 90 days may be deleted'); END;
