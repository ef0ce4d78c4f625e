-- Generated with `prisma migrate diff --from-schema-datamodel OLD --to-schema-datamodel NEW`,
-- then edited by hand: scope, action and targetType get CHECKs, and a trigger keeps the
-- activity log append-only.

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" BIGSERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secretDigest" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "lastUsedAt" TIMESTAMP(3),
    "lastDeprecatedUseAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ApiKey_scope_check" CHECK ("scope" IN ('read', 'write', 'admin'))
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL,
    "actorKeyId" TEXT NOT NULL,
    "actorName" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" BIGINT NOT NULL,
    "targetLabel" TEXT NOT NULL,
    "requestId" TEXT,
    "clientAddress" TEXT,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "AuditEvent_action_check" CHECK ("action" IN ('pet.created', 'key.created', 'key.revoked')),
    CONSTRAINT "AuditEvent_targetType_check" CHECK ("targetType" IN ('pet', 'key'))
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_secretDigest_key" ON "ApiKey"("secretDigest");

-- CreateIndex
CREATE INDEX "AuditEvent_action_id_idx" ON "AuditEvent"("action", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_targetType_targetId_id_idx" ON "AuditEvent"("targetType", "targetId", "id");

-- Append-only: the API never changes an event, nor may anything else that goes through SQL
-- (a role that must, such as a retention job, disables the trigger on purpose).
-- No semicolon may appear in this file outside statement ends: the pg driver adapter's
-- migrate splits the script on them. So the function body spells its one as \073 in an E'' string.
CREATE FUNCTION "AuditEvent_append_only"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN RAISE EXCEPTION ''AuditEvent is append-only''\073 END';
CREATE TRIGGER "AuditEvent_no_update_or_delete" BEFORE UPDATE OR DELETE ON "AuditEvent"
  FOR EACH ROW EXECUTE FUNCTION "AuditEvent_append_only"();
