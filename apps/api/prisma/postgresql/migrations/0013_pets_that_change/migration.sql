-- Pets that change: corrections, deletion with restore, history (docs/decisions/045-pets-that-change.md).

-- A deleted pet moves here, out of "Pet", in the transaction that deletes it: the spec's operations read
-- "Pet" exactly as before. Its id is the pet's own (the sequence never gives it again), and restorePet moves it back.
CREATE TABLE "DeletedPet" (
    "id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "categoryId" BIGINT NOT NULL,
    "status" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "nameKey" TEXT COLLATE "C",
    "deletedAt" TIMESTAMP(3) NOT NULL,
    "deletedBy" TEXT NOT NULL,

    CONSTRAINT "DeletedPet_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "DeletedPet_status_check" CHECK ("status" IN ('available', 'pending', 'sold'))
);
CREATE INDEX "DeletedPet_deletedAt_id_idx" ON "DeletedPet"("deletedAt", "id");

-- The fields a pet's change moved (listPetHistory), and the pet actions in the CHECK.
ALTER TABLE "AuditEvent" ADD COLUMN "changes" TEXT;
ALTER TABLE "AuditEvent" DROP CONSTRAINT "AuditEvent_action_check";
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_action_check" CHECK ("action" IN ('pet.created', 'key.created', 'key.revoked', 'webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.secret_rotated', 'staff.invited', 'staff.signed_in', 'key.signed_in', 'staff.role_changed', 'staff.disabled', 'passkey.added', 'passkey.removed', 'session.ended', 'pet.updated', 'pet.deleted', 'pet.restored', 'pet.purged'));
