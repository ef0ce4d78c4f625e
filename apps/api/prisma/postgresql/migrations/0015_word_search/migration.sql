-- Search by any word of a name (docs/decisions/047-word-search.md).

-- The start of each later word of the name of a pet: "key" is its nameKey from its second, third...
-- word on ("reginald fluffington", "fluffington" for "sir reginald fluffington"), so a name search reads
-- a key range here as it reads the (nameKey, id) index of "Pet" for the first word. A one-word name has no row.
-- COLLATE "C": a range compares code points, as "nameKey" does.
CREATE TABLE "PetWord" (
    "key" TEXT COLLATE "C" NOT NULL,
    "petId" BIGINT NOT NULL,

    CONSTRAINT "PetWord_pkey" PRIMARY KEY ("key", "petId")
);

-- The keys of the later words of a nameKey (words joined by one space).
CREATE FUNCTION "Pet_word_keys"("nameKey" TEXT) RETURNS SETOF TEXT LANGUAGE sql IMMUTABLE STRICT
  AS E'SELECT array_to_string("words"[i:], \' \') FROM string_to_array("nameKey", \' \') AS "words", generate_subscripts("words", 1) AS i WHERE i > 1';

-- Kept in the transaction of every write to "Pet", whatever the path.
CREATE FUNCTION "Pet_words_insert"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN INSERT INTO "PetWord" ("key", "petId") SELECT "wordKey", NEW."id" FROM "Pet_word_keys"(NEW."nameKey") AS "wordKey"\073 RETURN NULL\073 END';
CREATE FUNCTION "Pet_words_delete"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN DELETE FROM "PetWord" WHERE "petId" = OLD."id" AND "key" IN (SELECT "Pet_word_keys"(OLD."nameKey"))\073 RETURN NULL\073 END';
CREATE FUNCTION "Pet_words_update"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN DELETE FROM "PetWord" WHERE "petId" = OLD."id" AND "key" IN (SELECT "Pet_word_keys"(OLD."nameKey"))\073 INSERT INTO "PetWord" ("key", "petId") SELECT "wordKey", NEW."id" FROM "Pet_word_keys"(NEW."nameKey") AS "wordKey"\073 RETURN NULL\073 END';
CREATE FUNCTION "PetWord_reset"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN TRUNCATE "PetWord"\073 RETURN NULL\073 END';
CREATE TRIGGER "Pet_words_insert" AFTER INSERT ON "Pet" FOR EACH ROW
  WHEN (strpos(NEW."nameKey", ' ') > 0) EXECUTE FUNCTION "Pet_words_insert"();
CREATE TRIGGER "Pet_words_delete" AFTER DELETE ON "Pet" FOR EACH ROW
  WHEN (strpos(OLD."nameKey", ' ') > 0) EXECUTE FUNCTION "Pet_words_delete"();
CREATE TRIGGER "Pet_words_update" AFTER UPDATE OF "nameKey" ON "Pet" FOR EACH ROW
  WHEN (OLD."nameKey" IS DISTINCT FROM NEW."nameKey") EXECUTE FUNCTION "Pet_words_update"();
CREATE TRIGGER "Pet_words_truncate" AFTER TRUNCATE ON "Pet" FOR EACH STATEMENT EXECUTE FUNCTION "PetWord_reset"();

-- A key is now the words of the name: a name of ASCII letters and digits with single spaces between them
-- keeps the key it has (its lower case), and every other name gets a NULL key, which the API computes
-- at start-up with the one rule (src/pets/name-key.ts) before it serves, its words following by trigger.
UPDATE "Pet" SET "nameKey" = NULL WHERE "name" !~ '^[A-Za-z0-9]+( [A-Za-z0-9]+)*$';

-- The words of the names that kept their key.
INSERT INTO "PetWord" ("key", "petId")
SELECT "wordKey", "id" FROM "Pet", "Pet_word_keys"("nameKey") AS "wordKey" WHERE strpos("nameKey", ' ') > 0;
