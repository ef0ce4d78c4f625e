-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Pet" (
    "id" BIGSERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "categoryId" BIGINT NOT NULL,
    "status" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Pet_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Pet_status_check" CHECK ("status" IN ('available', 'pending', 'sold'))
);

-- CreateIndex
CREATE INDEX "Pet_status_id_idx" ON "Pet"("status", "id");
