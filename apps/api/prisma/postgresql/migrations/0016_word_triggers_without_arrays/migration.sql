-- The word index triggers of 0015_word_search, written as loops over the key (docs/decisions/048-word-triggers-as-loops.md).
-- The same rows as before: for each space of the key, the key after it. The set-returning function split
-- the key into an array, sliced and joined it again for every word, and ran its insert or delete as a
-- query over that set: measured at 30 us of a create of a three-word name, against 10-15 us for these
-- loops, each statement a cached plan run once per word. A NULL key has no words (strpos is NULL).
CREATE OR REPLACE FUNCTION "Pet_words_insert"() RETURNS trigger LANGUAGE plpgsql
  AS E'DECLARE k TEXT := NEW."nameKey"\073 p INTEGER := strpos(k, \' \')\073 BEGIN WHILE p > 0 LOOP k := substr(k, p + 1)\073 INSERT INTO "PetWord" ("key", "petId") VALUES (k, NEW."id")\073 p := strpos(k, \' \')\073 END LOOP\073 RETURN NULL\073 END';
CREATE OR REPLACE FUNCTION "Pet_words_delete"() RETURNS trigger LANGUAGE plpgsql
  AS E'DECLARE k TEXT := OLD."nameKey"\073 p INTEGER := strpos(k, \' \')\073 BEGIN WHILE p > 0 LOOP k := substr(k, p + 1)\073 DELETE FROM "PetWord" WHERE "key" = k AND "petId" = OLD."id"\073 p := strpos(k, \' \')\073 END LOOP\073 RETURN NULL\073 END';
CREATE OR REPLACE FUNCTION "Pet_words_update"() RETURNS trigger LANGUAGE plpgsql
  AS E'DECLARE k TEXT := OLD."nameKey"\073 p INTEGER := strpos(k, \' \')\073 BEGIN WHILE p > 0 LOOP k := substr(k, p + 1)\073 DELETE FROM "PetWord" WHERE "key" = k AND "petId" = OLD."id"\073 p := strpos(k, \' \')\073 END LOOP\073 k := NEW."nameKey"\073 p := strpos(k, \' \')\073 WHILE p > 0 LOOP k := substr(k, p + 1)\073 INSERT INTO "PetWord" ("key", "petId") VALUES (k, NEW."id")\073 p := strpos(k, \' \')\073 END LOOP\073 RETURN NULL\073 END';
