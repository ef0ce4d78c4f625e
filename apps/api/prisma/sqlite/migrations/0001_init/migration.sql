-- Generated with `prisma migrate diff --from-empty`, then edited by hand:
-- "id" is INTEGER PRIMARY KEY (the rowid, 64-bit, assigned by SQLite) where
-- Prisma emits BIGINT, which SQLite would not assign; status gets a CHECK.

-- CreateTable
CREATE TABLE "Pet" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "categoryId" BIGINT NOT NULL,
    "status" TEXT CHECK ("status" IN ('available', 'pending', 'sold')),
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "Pet_status_id_idx" ON "Pet"("status", "id");
