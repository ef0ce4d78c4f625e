-- Generated with `prisma migrate diff --from-schema-datamodel OLD --to-schema-datamodel NEW`,
-- then edited by hand: existing pets get their search key here where SQL can
-- compute it exactly (a name of printable ASCII only: NFKD leaves it alone, it
-- has no marks, and SQLite's lower() folds ASCII as JavaScript does). Any other
-- name keeps a NULL key, which the API fills at start-up with the one rule
-- (src/pets/name-key.ts) before it serves a request. docs/decisions/009-name-search.md.

-- AlterTable
ALTER TABLE "Pet" ADD COLUMN "nameKey" TEXT;

-- Backfill (ASCII names)
UPDATE "Pet" SET "nameKey" = lower("name") WHERE "name" NOT GLOB '*[^ -~]*';

-- CreateIndex
CREATE INDEX "Pet_nameKey_id_idx" ON "Pet"("nameKey", "id");
