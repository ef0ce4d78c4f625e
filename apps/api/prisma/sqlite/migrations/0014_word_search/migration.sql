-- Search by any word of a name (docs/decisions/047-word-search.md).

-- The start of each later word of the name of a pet: "key" is its nameKey from its second, third...
-- word on ("reginald fluffington", "fluffington" for "sir reginald fluffington"), so a name search reads
-- a key range here as it reads the (nameKey, id) index of "Pet" for the first word. A one-word name has no row.
CREATE TABLE "PetWord" (
    "key" TEXT NOT NULL,
    "petId" INTEGER NOT NULL,
    PRIMARY KEY ("key", "petId")
) WITHOUT ROWID;

-- Kept from "nameKey" (words joined by one space: letters and digits only) in the transaction of every
-- write to "Pet", whatever the path. The words become a JSON array (json_each: SQLite has no split, and a
-- trigger cannot hold a recursive WITH), and the key of a word starts where the lengths before it end. The
-- replace()s of \ and " keep the array valid should a key ever hold them.
CREATE TRIGGER "Pet_words_insert" AFTER INSERT ON "Pet" WHEN instr(NEW."nameKey", ' ') > 0 BEGIN
    INSERT INTO "PetWord" ("key", "petId")
    SELECT "wordKey", NEW."id" FROM (
        SELECT substr(NEW."nameKey", sum(length("value") + 1) OVER (ORDER BY "key") - length("value")) AS "wordKey", "key" AS "position"
        FROM json_each('["' || replace(replace(replace(NEW."nameKey", '\', '\\'), '"', '\"'), ' ', '","') || '"]')
    ) WHERE "position" > 0;
END;
CREATE TRIGGER "Pet_words_delete" AFTER DELETE ON "Pet" WHEN instr(OLD."nameKey", ' ') > 0 BEGIN
    DELETE FROM "PetWord" WHERE "petId" = OLD."id" AND "key" IN (
        SELECT "wordKey" FROM (
            SELECT substr(OLD."nameKey", sum(length("value") + 1) OVER (ORDER BY "key") - length("value")) AS "wordKey", "key" AS "position"
            FROM json_each('["' || replace(replace(replace(OLD."nameKey", '\', '\\'), '"', '\"'), ' ', '","') || '"]')
        ) WHERE "position" > 0
    );
END;
CREATE TRIGGER "Pet_words_update" AFTER UPDATE OF "nameKey" ON "Pet" WHEN OLD."nameKey" IS NOT NEW."nameKey" BEGIN
    DELETE FROM "PetWord" WHERE "petId" = OLD."id" AND "key" IN (
        SELECT "wordKey" FROM (
            SELECT substr(OLD."nameKey", sum(length("value") + 1) OVER (ORDER BY "key") - length("value")) AS "wordKey", "key" AS "position"
            FROM json_each('["' || replace(replace(replace(OLD."nameKey", '\', '\\'), '"', '\"'), ' ', '","') || '"]')
        ) WHERE "position" > 0
    );
    INSERT INTO "PetWord" ("key", "petId")
    SELECT "wordKey", NEW."id" FROM (
        SELECT substr(NEW."nameKey", sum(length("value") + 1) OVER (ORDER BY "key") - length("value")) AS "wordKey", "key" AS "position"
        FROM json_each('["' || replace(replace(replace(NEW."nameKey", '\', '\\'), '"', '\"'), ' ', '","') || '"]')
    ) WHERE "position" > 0;
END;

-- A key is now the words of the name: a name of ASCII letters and digits with single spaces between them
-- keeps the key it has (its lower case), and every other name gets a NULL key, which the API computes
-- at start-up with the one rule (src/pets/name-key.ts) before it serves, its words following by trigger.
UPDATE "Pet" SET "nameKey" = NULL
WHERE "name" GLOB '*[^A-Za-z0-9 ]*' OR "name" GLOB ' *' OR "name" GLOB '* ' OR instr("name", '  ') > 0;

-- The words of the names that kept their key.
INSERT INTO "PetWord" ("key", "petId")
SELECT "wordKey", "id" FROM (
    SELECT "Pet"."id", "word"."key" AS "position",
        substr("Pet"."nameKey", sum(length("word"."value") + 1) OVER (PARTITION BY "Pet"."id" ORDER BY "word"."key") - length("word"."value")) AS "wordKey"
    FROM "Pet", json_each('["' || replace("Pet"."nameKey", ' ', '","') || '"]') AS "word"
    WHERE instr("Pet"."nameKey", ' ') > 0
) WHERE "position" > 0;
