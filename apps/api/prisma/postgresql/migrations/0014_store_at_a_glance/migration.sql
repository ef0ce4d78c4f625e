-- The store at a glance: categories by name, and the counts the inventory reads (docs/decisions/046-the-store-at-a-glance.md).

-- A category's name. Its id is the categoryId pets carry (given, or the next above every one in use).
-- "nameKey" is the name folded as the name search folds it: unique, so "Dogs" and "dögs" are one name.
CREATE TABLE "Category" (
    "id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT COLLATE "C" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Category_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "Category_nameKey_key" ON "Category"("nameKey");

-- How many pets each (categoryId, status) has ('' stands for no status), kept by the trigger below in
-- the transaction of every write to "Pet" (create, change, delete, restore: a purge touches only
-- "DeletedPet"). Each write adds its +1 or -1 to one of 16 slots picked at random, and the inventory
-- sums the slots: concurrent creates on any replica seldom wait on one row.
CREATE TABLE "PetCount" (
    "categoryId" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "count" BIGINT NOT NULL,

    CONSTRAINT "PetCount_pkey" PRIMARY KEY ("categoryId", "status", "slot")
);
INSERT INTO "PetCount" ("categoryId", "status", "slot", "count")
SELECT "categoryId", coalesce("status", ''), 0, count(*) FROM "Pet" GROUP BY "categoryId", coalesce("status", '');

-- No semicolon outside statement ends (the adapter's migrate splits on them): \073 inside the bodies.
-- One function per kind of write, each statement written out (plpgsql caches its plan), so a create
-- costs one plain upsert. A change moves one pet between two rows: they are updated in key order, so
-- two changes never wait on each other's rows in a cycle.
CREATE FUNCTION "Pet_counted_insert"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN INSERT INTO "PetCount" ("categoryId", "status", "slot", "count") VALUES (NEW."categoryId", coalesce(NEW."status", \'\'), floor(random() * 16)::INTEGER, 1) ON CONFLICT ("categoryId", "status", "slot") DO UPDATE SET "count" = "PetCount"."count" + 1\073 RETURN NULL\073 END';
CREATE FUNCTION "Pet_counted_delete"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN INSERT INTO "PetCount" ("categoryId", "status", "slot", "count") VALUES (OLD."categoryId", coalesce(OLD."status", \'\'), floor(random() * 16)::INTEGER, -1) ON CONFLICT ("categoryId", "status", "slot") DO UPDATE SET "count" = "PetCount"."count" - 1\073 RETURN NULL\073 END';
CREATE FUNCTION "Pet_counted_update"() RETURNS trigger LANGUAGE plpgsql
  AS E'DECLARE pick INTEGER := floor(random() * 16)::INTEGER\073 BEGIN IF (OLD."categoryId", coalesce(OLD."status", \'\')) < (NEW."categoryId", coalesce(NEW."status", \'\')) THEN INSERT INTO "PetCount" ("categoryId", "status", "slot", "count") VALUES (OLD."categoryId", coalesce(OLD."status", \'\'), pick, -1) ON CONFLICT ("categoryId", "status", "slot") DO UPDATE SET "count" = "PetCount"."count" - 1\073 INSERT INTO "PetCount" ("categoryId", "status", "slot", "count") VALUES (NEW."categoryId", coalesce(NEW."status", \'\'), pick, 1) ON CONFLICT ("categoryId", "status", "slot") DO UPDATE SET "count" = "PetCount"."count" + 1\073 ELSE INSERT INTO "PetCount" ("categoryId", "status", "slot", "count") VALUES (NEW."categoryId", coalesce(NEW."status", \'\'), pick, 1) ON CONFLICT ("categoryId", "status", "slot") DO UPDATE SET "count" = "PetCount"."count" + 1\073 INSERT INTO "PetCount" ("categoryId", "status", "slot", "count") VALUES (OLD."categoryId", coalesce(OLD."status", \'\'), pick, -1) ON CONFLICT ("categoryId", "status", "slot") DO UPDATE SET "count" = "PetCount"."count" - 1\073 END IF\073 RETURN NULL\073 END';
CREATE TRIGGER "Pet_counted_insert" AFTER INSERT ON "Pet" FOR EACH ROW EXECUTE FUNCTION "Pet_counted_insert"();
CREATE TRIGGER "Pet_counted_delete" AFTER DELETE ON "Pet" FOR EACH ROW EXECUTE FUNCTION "Pet_counted_delete"();
CREATE TRIGGER "Pet_counted_update" AFTER UPDATE OF "categoryId", "status" ON "Pet" FOR EACH ROW
  WHEN (OLD."categoryId" IS DISTINCT FROM NEW."categoryId" OR OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "Pet_counted_update"();

-- TRUNCATE fires no row trigger: it empties the counts with the pets.
CREATE FUNCTION "PetCount_reset"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN DELETE FROM "PetCount"\073 RETURN NULL\073 END';
CREATE TRIGGER "Pet_counted_truncate" AFTER TRUNCATE ON "Pet" FOR EACH STATEMENT EXECUTE FUNCTION "PetCount_reset"();

-- The category filter reads an index range, as the status filter does.
CREATE INDEX "Pet_categoryId_id_idx" ON "Pet"("categoryId", "id");

-- The category actions and target in the activity log.
ALTER TABLE "AuditEvent" DROP CONSTRAINT "AuditEvent_action_check";
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_action_check" CHECK ("action" IN ('pet.created', 'key.created', 'key.revoked', 'webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.secret_rotated', 'staff.invited', 'staff.signed_in', 'key.signed_in', 'staff.role_changed', 'staff.disabled', 'passkey.added', 'passkey.removed', 'session.ended', 'pet.updated', 'pet.deleted', 'pet.restored', 'pet.purged', 'category.created', 'category.renamed'));
ALTER TABLE "AuditEvent" DROP CONSTRAINT "AuditEvent_targetType_check";
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_targetType_check" CHECK ("targetType" IN ('pet', 'key', 'webhook', 'staff', 'category'));
