-- Generated with `prisma migrate diff --from-schema-datamodel OLD --to-schema-datamodel NEW`,
-- then edited by hand:
-- - COLLATE "C": a prefix search is a range of keys, which must compare code
--   points (UTF-8 bytes) whatever the database's default collation is;
-- - existing pets get their search key here where SQL can compute it exactly
--   (a name of printable ASCII only: NFKD leaves it alone, it has no marks, and
--   lower() under "C" folds ASCII as JavaScript does). Any other name keeps a
--   NULL key, which the API fills at start-up with the one rule
--   (src/pets/name-key.ts) before it serves a request. docs/decisions/009-name-search.md.

-- AlterTable
ALTER TABLE "Pet" ADD COLUMN "nameKey" TEXT COLLATE "C";

-- Backfill (ASCII names)
UPDATE "Pet" SET "nameKey" = lower("name" COLLATE "C") WHERE "name" ~ '^[ -~]*$';

-- CreateIndex
CREATE INDEX "Pet_nameKey_id_idx" ON "Pet"("nameKey", "id");
