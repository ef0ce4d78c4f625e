-- Generated with `prisma migrate diff --from-schema-datamodel OLD --to-schema-datamodel NEW`,
-- then edited by hand: role, scope, lower-case emails and the owner of a session get CHECKs, and
-- the CHECKs of AuditEvent take the sign-in actions and the staff target type, with an actor always named.
-- Numbered 0008: 0007 is left for a change made at the same time on another branch: Prisma
-- migrate deploy applies every migration not yet applied, in name order, whatever was applied before.
-- No semicolon may appear in this file outside statement ends (see 0004_staff_access), nor an apostrophe in a comment.

-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN     "actorStaffId" BIGINT,
ADD COLUMN     "detail" TEXT,
ALTER COLUMN "actorKeyId" DROP NOT NULL;

ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_actor_check" CHECK ("actorKeyId" IS NOT NULL OR "actorStaffId" IS NOT NULL);
ALTER TABLE "AuditEvent" DROP CONSTRAINT "AuditEvent_action_check";
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_action_check" CHECK ("action" IN ('pet.created', 'key.created', 'key.revoked', 'webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.secret_rotated', 'staff.invited', 'staff.signed_in', 'key.signed_in', 'staff.role_changed', 'staff.disabled', 'passkey.added', 'passkey.removed', 'session.ended'));
ALTER TABLE "AuditEvent" DROP CONSTRAINT "AuditEvent_targetType_check";
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_targetType_check" CHECK ("targetType" IN ('pet', 'key', 'webhook', 'staff'));

-- CreateTable
CREATE TABLE "StaffMember" (
    "id" BIGSERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "lastSignInAt" TIMESTAMP(3),
    "disabledAt" TIMESTAMP(3),
    "oidcIssuer" TEXT,
    "oidcSubject" TEXT,

    CONSTRAINT "StaffMember_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "StaffMember_role_check" CHECK ("role" IN ('read', 'write', 'admin')),
    CONSTRAINT "StaffMember_email_check" CHECK ("email" = lower("email"))
);

-- CreateTable
CREATE TABLE "Passkey" (
    "id" BIGSERIAL NOT NULL,
    "staffId" BIGINT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "counter" BIGINT NOT NULL DEFAULT 0,
    "transports" TEXT NOT NULL DEFAULT '',
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "Passkey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" BIGSERIAL NOT NULL,
    "tokenDigest" TEXT NOT NULL,
    "staffId" BIGINT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StaffSession" (
    "id" BIGSERIAL NOT NULL,
    "digest" TEXT NOT NULL,
    "staffId" BIGINT,
    "keyId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastActiveAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),
    "userAgent" TEXT,

    CONSTRAINT "StaffSession_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "StaffSession_owner_check" CHECK (("staffId" IS NULL) <> ("keyId" IS NULL))
);

-- CreateTable
CREATE TABLE "SessionToken" (
    "id" BIGSERIAL NOT NULL,
    "digest" TEXT NOT NULL,
    "sessionId" BIGINT NOT NULL,
    "scope" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SessionToken_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "SessionToken_scope_check" CHECK ("scope" IN ('read', 'write', 'admin'))
);

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

