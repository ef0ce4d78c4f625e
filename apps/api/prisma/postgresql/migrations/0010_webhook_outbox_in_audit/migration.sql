-- The models are shared with SQLite, whose webhook outbox moved into "AuditEvent" (its
-- "webhookEventId" and "webhookData", fanned out behind the "WebhookFanOut" cursor). PostgreSQL
-- keeps "WebhookEvent": its sequence order is not commit order, so a cursor could pass over an
-- event whose transaction commits late. Here the columns stay null and the table empty.

-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN "webhookEventId" TEXT,
ADD COLUMN "webhookData" TEXT;

-- CreateTable
CREATE TABLE "WebhookFanOut" (
    "id" INTEGER NOT NULL,
    "lastAuditEventId" BIGINT NOT NULL,

    CONSTRAINT "WebhookFanOut_pkey" PRIMARY KEY ("id")
);
