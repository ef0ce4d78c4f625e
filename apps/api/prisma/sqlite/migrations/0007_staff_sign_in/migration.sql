-- Generated with `prisma migrate diff --from-schema-datamodel OLD --to-schema-datamodel NEW`,
-- then edited by hand: ids are INTEGER PRIMARY KEY AUTOINCREMENT (as Pet's), role, scope and
-- a session's owner get CHECKs, emails are stored lower-case, and AuditEvent is rebuilt as in
-- 0005_webhooks (SQLite cannot alter a CHECK or a NOT NULL; DROP TABLE fires no trigger, and the
-- triggers are made again): actorKeyId may be null (a person acted: actorStaffId), detail is new,
-- and its CHECKs take the sign-in actions and the staff target type.
-- Numbered 0007: 0006 is left for a change made at the same time on another branch; Prisma's
-- migrate deploy applies every migration not yet applied, in name order, whatever was applied before.

-- CreateTable
CREATE TABLE "StaffMember" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "email" TEXT NOT NULL CHECK ("email" = lower("email")),
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL CHECK ("role" IN ('read', 'write', 'admin')),
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "lastSignInAt" DATETIME,
    "disabledAt" DATETIME,
    "oidcIssuer" TEXT,
    "oidcSubject" TEXT
);

-- CreateTable
CREATE TABLE "Passkey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "staffId" BIGINT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "counter" BIGINT NOT NULL DEFAULT 0,
    "transports" TEXT NOT NULL DEFAULT '',
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "tokenDigest" TEXT NOT NULL,
    "staffId" BIGINT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME
);

-- CreateTable
CREATE TABLE "StaffSession" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "digest" TEXT NOT NULL,
    "staffId" BIGINT,
    "keyId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastActiveAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "endedAt" DATETIME,
    "userAgent" TEXT,
    -- A person's session or a key's, never both nor neither.
    CHECK (("staffId" IS NULL) <> ("keyId" IS NULL))
);

-- CreateTable
CREATE TABLE "SessionToken" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "digest" TEXT NOT NULL,
    "sessionId" BIGINT NOT NULL,
    "scope" TEXT NOT NULL CHECK ("scope" IN ('read', 'write', 'admin')),
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL
);

-- AuditEvent, rebuilt: actorKeyId nullable, actorStaffId and detail, the sign-in actions and the staff target in its CHECKs.
CREATE TABLE "new_AuditEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL CHECK ("action" IN ('pet.created', 'key.created', 'key.revoked', 'webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.secret_rotated', 'staff.invited', 'staff.signed_in', 'key.signed_in', 'staff.role_changed', 'staff.disabled', 'passkey.added', 'passkey.removed', 'session.ended')),
    "actorKeyId" TEXT,
    "actorStaffId" BIGINT,
    "actorName" TEXT NOT NULL,
    "targetType" TEXT NOT NULL CHECK ("targetType" IN ('pet', 'key', 'webhook', 'staff')),
    "targetId" BIGINT NOT NULL,
    "targetLabel" TEXT NOT NULL,
    "detail" TEXT,
    "requestId" TEXT,
    "clientAddress" TEXT,
    -- A key (or the operator command) or a person.
    CHECK ("actorKeyId" IS NOT NULL OR "actorStaffId" IS NOT NULL)
);
INSERT INTO "new_AuditEvent" ("action", "actorKeyId", "actorName", "at", "clientAddress", "id", "requestId", "targetId", "targetLabel", "targetType") SELECT "action", "actorKeyId", "actorName", "at", "clientAddress", "id", "requestId", "targetId", "targetLabel", "targetType" FROM "AuditEvent";
DROP TABLE "AuditEvent";
ALTER TABLE "new_AuditEvent" RENAME TO "AuditEvent";
CREATE INDEX "AuditEvent_action_id_idx" ON "AuditEvent"("action", "id");
CREATE INDEX "AuditEvent_targetType_targetId_id_idx" ON "AuditEvent"("targetType", "targetId", "id");
CREATE TRIGGER "AuditEvent_no_update" BEFORE UPDATE ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'AuditEvent is append-only'); END;
CREATE TRIGGER "AuditEvent_no_delete" BEFORE DELETE ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'AuditEvent is append-only'); END;

-- CreateIndex
CREATE UNIQUE INDEX "StaffMember_email_key" ON "StaffMember"("email");

-- CreateIndex
CREATE UNIQUE INDEX "StaffMember_oidcIssuer_oidcSubject_key" ON "StaffMember"("oidcIssuer", "oidcSubject");

-- CreateIndex
CREATE UNIQUE INDEX "Passkey_credentialId_key" ON "Passkey"("credentialId");

-- CreateIndex
CREATE INDEX "Passkey_staffId_idx" ON "Passkey"("staffId");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_tokenDigest_key" ON "Invitation"("tokenDigest");

-- CreateIndex
CREATE INDEX "Invitation_staffId_idx" ON "Invitation"("staffId");

-- CreateIndex
CREATE UNIQUE INDEX "StaffSession_digest_key" ON "StaffSession"("digest");

-- CreateIndex
CREATE INDEX "StaffSession_staffId_idx" ON "StaffSession"("staffId");

-- CreateIndex
CREATE INDEX "StaffSession_keyId_idx" ON "StaffSession"("keyId");

-- CreateIndex
CREATE UNIQUE INDEX "SessionToken_digest_key" ON "SessionToken"("digest");

-- CreateIndex
CREATE INDEX "SessionToken_sessionId_idx" ON "SessionToken"("sessionId");

-- CreateIndex
CREATE INDEX "SessionToken_expiresAt_idx" ON "SessionToken"("expiresAt");

