-- Generated with `prisma migrate diff --from-schema-datamodel OLD --to-schema-datamodel NEW`,
-- then edited by hand: "id" is INTEGER PRIMARY KEY AUTOINCREMENT (as Pet's: Prisma's
-- BIGINT would not be assigned); scope, action and targetType get CHECKs; triggers keep
-- the activity log append-only.

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "scope" TEXT NOT NULL CHECK ("scope" IN ('read', 'write', 'admin')),
    "prefix" TEXT NOT NULL,
    "secretDigest" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "lastUsedAt" DATETIME,
    "lastDeprecatedUseAt" DATETIME,
    "expiresAt" DATETIME,
    "revokedAt" DATETIME
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL CHECK ("action" IN ('pet.created', 'key.created', 'key.revoked')),
    "actorKeyId" TEXT NOT NULL,
    "actorName" TEXT NOT NULL,
    "targetType" TEXT NOT NULL CHECK ("targetType" IN ('pet', 'key')),
    "targetId" BIGINT NOT NULL,
    "targetLabel" TEXT NOT NULL,
    "requestId" TEXT,
    "clientAddress" TEXT
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_secretDigest_key" ON "ApiKey"("secretDigest");

-- CreateIndex
CREATE INDEX "AuditEvent_action_id_idx" ON "AuditEvent"("action", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_targetType_targetId_id_idx" ON "AuditEvent"("targetType", "targetId", "id");

-- Append-only: the API never changes an event; neither may anything else that goes through SQL.
CREATE TRIGGER "AuditEvent_no_update" BEFORE UPDATE ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'AuditEvent is append-only'); END;
CREATE TRIGGER "AuditEvent_no_delete" BEFORE DELETE ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'AuditEvent is append-only'); END;
