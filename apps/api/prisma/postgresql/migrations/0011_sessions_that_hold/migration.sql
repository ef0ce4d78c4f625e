-- Sessions that hold (docs/decisions/037-sessions-that-hold.md).
-- A configured key is named by a keyed fingerprint, not by its position in API_KEYS: the salt is made
-- once per deployment (by the first API process to start) and kept here. Key sessions recorded as
-- `configured-N` match no fingerprint, so the first start on this migration ends them.
CREATE TABLE "KeyFingerprintSalt" (
    "id" INTEGER NOT NULL,
    "salt" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KeyFingerprintSalt_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "KeyFingerprintSalt_one_row" CHECK ("id" = 1)
);

-- The person whose session token issued a key: disabling them can revoke their keys.
ALTER TABLE "ApiKey" ADD COLUMN "createdByStaffId" BIGINT;
CREATE INDEX "ApiKey_createdByStaffId_id_idx" ON "ApiKey"("createdByStaffId", "id");
