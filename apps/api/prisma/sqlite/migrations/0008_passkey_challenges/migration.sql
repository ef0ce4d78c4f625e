-- Written by hand as `prisma migrate diff` writes a new table, with the id as INTEGER PRIMARY KEY
-- AUTOINCREMENT (as every table here) and a CHECK on purpose. The passkey ceremonies' one-time
-- challenges (docs/decisions/027-passkeys.md).

-- CreateTable
CREATE TABLE "PasskeyChallenge" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "digest" TEXT NOT NULL,
    "purpose" TEXT NOT NULL CHECK ("purpose" IN ('invitation', 'add', 'sign-in')),
    "staffId" BIGINT,
    "invitationDigest" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "PasskeyChallenge_digest_key" ON "PasskeyChallenge"("digest");

-- CreateIndex
CREATE INDEX "PasskeyChallenge_expiresAt_idx" ON "PasskeyChallenge"("expiresAt");
