-- The category filter reads a zone map instead of an index (docs/decisions/050-category-blocks.md).

-- Which blocks of 1,024 pet ids ("block" = id >> 10) hold a pet of each category ("category": a
-- categoryId). A superset: a pet that moves to another category or is deleted leaves its row behind,
-- which costs a later listing one block read for nothing, never a wrong answer. A listing by category
-- reads its blocks in order and, in each, the 1,024 ids of "Pet" by rowid. The index on
-- ("categoryId", "id") it replaces cost every create a write to its category's leaf page (a commit of
-- 20 creates over 20 categories wrote 20 more pages); a block gets its rows from the first pet of each
-- category in it, one create in ten with 100 categories, and every later one reads the row and writes nothing.
CREATE TABLE "PetBlock" (
    "category" INTEGER NOT NULL,
    "block" INTEGER NOT NULL,
    PRIMARY KEY ("category", "block")
) WITHOUT ROWID;

INSERT INTO "PetBlock" ("category", "block") SELECT DISTINCT "categoryId", "id" >> 10 FROM "Pet";

-- A restore puts a pet back with its own id: an insert like any other.
CREATE TRIGGER "Pet_blocked_insert" AFTER INSERT ON "Pet" BEGIN
    INSERT OR IGNORE INTO "PetBlock" ("category", "block") VALUES (NEW."categoryId", NEW."id" >> 10);
END;
CREATE TRIGGER "Pet_blocked_update" AFTER UPDATE OF "categoryId" ON "Pet"
    WHEN OLD."categoryId" IS NOT NEW."categoryId"
BEGIN
    INSERT OR IGNORE INTO "PetBlock" ("category", "block") VALUES (NEW."categoryId", NEW."id" >> 10);
END;

DROP INDEX "Pet_categoryId_id_idx";
