-- Search by any word of a name (docs/decisions/047-word-search.md).

-- The start of each later word of the name of a pet: "key" is its nameKey from its second, third...
-- word on ("reginald fluffington", "fluffington" for "sir reginald fluffington"), so a name search reads
-- a key range here as it reads the (nameKey, id) index of "Pet" for the first word. A one-word name has no row.
CREATE TABLE "PetWord" (
    "key" TEXT NOT NULL,
    "petId" INTEGER NOT NULL,
    PRIMARY KEY ("key", "petId")
) WITHOUT ROWID;

-- Kept by the API in the transaction of every write to "Pet" (apps/api/src/pets/pet-words.ts), not by a
-- trigger: SQLite has no split, and a trigger that builds a JSON array of the words and sums their lengths
-- cost 25-30 us per create, where the API's statements cost 2-3 us (docs/decisions/047-word-search.md).

-- A key is now the words of the name: a name of ASCII letters and digits with single spaces between them
-- keeps the key it has (its lower case), and every other name gets a NULL key, which the API computes
-- at start-up with the one rule (src/pets/name-key.ts) before it serves, and its words with it.
UPDATE "Pet" SET "nameKey" = NULL
WHERE "name" GLOB '*[^A-Za-z0-9 ]*' OR "name" GLOB ' *' OR "name" GLOB '* ' OR instr("name", '  ') > 0;

-- The words of the names that kept their key, in one statement: the words become a JSON array for
-- json_each (no split in SQLite), and the key of a word starts where the lengths before it end.
INSERT INTO "PetWord" ("key", "petId")
SELECT "wordKey", "id" FROM (
    SELECT "Pet"."id", "word"."key" AS "position",
        substr("Pet"."nameKey", sum(length("word"."value") + 1) OVER (PARTITION BY "Pet"."id" ORDER BY "word"."key") - length("word"."value")) AS "wordKey"
    FROM "Pet", json_each('["' || replace("Pet"."nameKey", ' ', '","') || '"]') AS "word"
    WHERE instr("Pet"."nameKey", ' ') > 0
) WHERE "position" > 0;
