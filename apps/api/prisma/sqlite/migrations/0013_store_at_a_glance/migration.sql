-- The store at a glance: categories by name, and the counts the inventory reads (docs/decisions/046-the-store-at-a-glance.md).

-- A category's name: its id is the categoryId pets carry (given, or the next above every one in use).
-- "nameKey" is the name folded as the name search folds it (pets/name-key.ts): unique, so "Dogs" and "dögs" are one name.
CREATE TABLE "Category" (
    "id" INTEGER NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "Category_nameKey_key" ON "Category"("nameKey");

-- How many pets each (categoryId, status) has: '' stands for no status. Kept by the triggers below in the
-- transaction of every write to "Pet" (create, change, delete, restore: a purge touches only "DeletedPet"),
-- so the inventory sums a few rows instead of counting the pets. SQLite has one writer: one slot (0).
CREATE TABLE "PetCount" (
    "categoryId" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "count" BIGINT NOT NULL,
    PRIMARY KEY ("categoryId", "status", "slot")
) WITHOUT ROWID;
INSERT INTO "PetCount" ("categoryId", "status", "slot", "count")
SELECT "categoryId", coalesce("status", ''), 0, count(*) FROM "Pet" GROUP BY "categoryId", coalesce("status", '');

CREATE TRIGGER "Pet_counted_insert" AFTER INSERT ON "Pet" BEGIN
    INSERT INTO "PetCount" ("categoryId", "status", "slot", "count") VALUES (NEW."categoryId", coalesce(NEW."status", ''), 0, 1)
    ON CONFLICT ("categoryId", "status", "slot") DO UPDATE SET "count" = "count" + 1;
END;
CREATE TRIGGER "Pet_counted_delete" AFTER DELETE ON "Pet" BEGIN
    UPDATE "PetCount" SET "count" = "count" - 1
    WHERE "categoryId" = OLD."categoryId" AND "status" = coalesce(OLD."status", '') AND "slot" = 0;
END;
CREATE TRIGGER "Pet_counted_update" AFTER UPDATE OF "categoryId", "status" ON "Pet"
    WHEN OLD."categoryId" IS NOT NEW."categoryId" OR OLD."status" IS NOT NEW."status"
BEGIN
    UPDATE "PetCount" SET "count" = "count" - 1
    WHERE "categoryId" = OLD."categoryId" AND "status" = coalesce(OLD."status", '') AND "slot" = 0;
    INSERT INTO "PetCount" ("categoryId", "status", "slot", "count") VALUES (NEW."categoryId", coalesce(NEW."status", ''), 0, 1)
    ON CONFLICT ("categoryId", "status", "slot") DO UPDATE SET "count" = "count" + 1;
END;

-- The category filter reads an index range, as the status filter does.
CREATE INDEX "Pet_categoryId_id_idx" ON "Pet"("categoryId", "id");

-- AuditEvent, rebuilt as 0012 did (SQLite cannot alter a CHECK): the category actions and target join it.
CREATE TABLE "new_AuditEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL CHECK ("action" IN ('pet.created', 'key.created', 'key.revoked', 'webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.secret_rotated', 'staff.invited', 'staff.signed_in', 'key.signed_in', 'staff.role_changed', 'staff.disabled', 'passkey.added', 'passkey.removed', 'session.ended', 'pet.updated', 'pet.deleted', 'pet.restored', 'pet.purged', 'category.created', 'category.renamed')),
    "actorKeyId" TEXT,
    "actorStaffId" BIGINT,
    "actorName" TEXT NOT NULL,
    "targetType" TEXT NOT NULL CHECK ("targetType" IN ('pet', 'key', 'webhook', 'staff', 'category')),
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
INSERT INTO "new_AuditEvent" ("id", "at", "action", "actorKeyId", "actorStaffId", "actorName", "targetType", "targetId", "targetLabel", "detail", "requestId", "clientAddress", "webhookEventId", "webhookData", "changes")
SELECT "id", "at", "action", "actorKeyId", "actorStaffId", "actorName", "targetType", "targetId", "targetLabel", "detail", "requestId", "clientAddress", "webhookEventId", "webhookData", "changes" FROM "AuditEvent";
DROP TABLE "AuditEvent";
ALTER TABLE "new_AuditEvent" RENAME TO "AuditEvent";
CREATE INDEX "AuditEvent_action_id_idx" ON "AuditEvent"("action", "id");
CREATE INDEX "AuditEvent_targetType_targetId_id_idx" ON "AuditEvent"("targetType", "targetId", "id");
CREATE TRIGGER "AuditEvent_no_update" BEFORE UPDATE ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'AuditEvent is append-only'); END;
CREATE TRIGGER "AuditEvent_no_delete" BEFORE DELETE ON "AuditEvent"
    WHEN OLD."at" >= strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now', '-90 days')
BEGIN SELECT RAISE(ABORT, 'AuditEvent is append-only: only rows older than 90 days may be deleted'); END;
