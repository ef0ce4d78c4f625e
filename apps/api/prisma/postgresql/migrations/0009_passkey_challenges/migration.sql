-- CreateTable
CREATE TABLE "PasskeyChallenge" (
    "id" BIGSERIAL NOT NULL,
    "digest" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "staffId" BIGINT,
    "invitationDigest" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PasskeyChallenge_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "PasskeyChallenge_purpose_check" CHECK ("purpose" IN ('invitation', 'add', 'sign-in'))
);

-- CreateIndex
CREATE UNIQUE INDEX "PasskeyChallenge_digest_key" ON "PasskeyChallenge"("digest");

-- CreateIndex
CREATE INDEX "PasskeyChallenge_expiresAt_idx" ON "PasskeyChallenge"("expiresAt");
