import type { NewPet, PetStatus } from "@petstore/contract";
import type { PreparedQuery } from "../data/postgres-prepared-statements.js";
import type { PrismaClient } from "../generated/pg/client.js";
import { Prisma } from "../generated/pg/client.js";
import { activityOfRows, recordActivity, eventOfRows } from "../activity/prisma-activity-log.js";
import { answerFromRecord, idempotencyLockId } from "./idempotent-create.js";
import { nameKey } from "./name-key.js";
import { createdChanges } from "./pet-changes.js";
import type { KeyedPetInsert, KeyedCreateOutcome, PetRepository } from "./pet-repository.js";
import { toPet, type PetRow } from "./pet-row.js";

const petColumns = { id: true, name: true, categoryId: true, status: true } as const;
const recordColumns = { fingerprint: true, body: true, location: true, createdAt: true } as const;

/**
 * Bounds for a keyed create's transaction: waiting for a pooled connection
 * (Prisma's default, 2 s, turns a busy pool into 500s) and running.
 */
const TRANSACTION_LIMITS = { maxWait: 10_000, timeout: 10_000 } as const;

const PET_COLUMNS = Prisma.raw(`"id", "name", "categoryId", "status"`);

/**
 * The status filter as a constant of the statement, one statement per status: a prepared statement's
 * generic plan cannot see a parameter's value, and planned for "any status" it walked the primary key
 * for every status, where a rare one is read from the (status, id) index. With the value in the text,
 * each of the three is planned for its own share of the pets (and again after ANALYZE).
 */
const STATUS_IS: Record<PetStatus, Prisma.Sql> = {
  available: Prisma.raw(`"status" = 'available'`),
  pending: Prisma.raw(`"status" = 'pending'`),
  sold: Prisma.raw(`"status" = 'sold'`),
};

/** A row of `Pet` as the API answers it (pet-row.ts's toPet: no status when unset), as JSON text. */
const PET_JSON = Prisma.sql`json_strip_nulls(json_build_object('id', "id", 'name', "name", 'categoryId', "categoryId", 'status', "status"))::text`;

/** PostgreSQL's unique violation, as Prisma reports it. */
const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === "P2002";

/**
 * Pets on PostgreSQL. The spec's three operations (a page in id order, a pet by id, a create with its
 * activity and event) run through `prepared`, each planned once per connection (decision 056); the
 * rest through Prisma's generated client (int64 columns are `bigint` there).
 */
export function createPrismaPetRepository(prisma: PrismaClient, prepared: PreparedQuery): PetRepository {
  return {
    async list({ take, status, after = 0 }) {
      const rows = await prepared<PetRow>(
        status === undefined
          ? Prisma.sql`SELECT ${PET_COLUMNS} FROM "Pet" WHERE "id" > ${after} ORDER BY "id" ASC LIMIT ${take}`
          : Prisma.sql`SELECT ${PET_COLUMNS} FROM "Pet" WHERE ${STATUS_IS[status]} AND "id" > ${after} ORDER BY "id" ASC LIMIT ${take}`,
      );
      return rows.map(toPet);
    },
    async create(pet, audit) {
      if (audit) {
        // One statement, so one round trip and atomic by itself: the pet, its activity row and its event, or none.
        const [row] = await prepared<PetRow>(Prisma.sql`
          WITH "created" AS (
            INSERT INTO "Pet" ("name", "nameKey", "categoryId", "status")
            VALUES (${pet.name}, ${nameKey(pet.name)}, ${BigInt(pet.categoryId)}, ${pet.status ?? null})
            RETURNING "id", "name", "categoryId", "status"
          ), "activity" AS (${activityOfRows("created", "pet.created", "pet", audit, createdChanges(pet))}
          ), "event" AS (${eventOfRows("created", "pet.created", PET_JSON)})
          SELECT "id", "name", "categoryId", "status" FROM "created"`);
        return toPet(row!);
      }
      const row = await prisma.pet.create({
        select: petColumns,
        data: petData(pet),
      });
      return toPet(row);
    },
    async createIdempotent(request) {
      try {
        return await prisma.$transaction((tx) => createInTransaction(tx, request), TRANSACTION_LIMITS);
      } catch (error) {
        // The primary key (scope, key) is the last guard, should two creates of
        // one key ever pass the lock together: the loser reads what the winner stored.
        if (!isUniqueViolation(error)) throw error;
        const record = await prisma.idempotencyRecord.findUnique({
          select: recordColumns,
          where: { scope_key: { scope: request.scope, key: request.key } },
        });
        return record ? answerFromRecord(record, request.fingerprint) : { kind: "in-flight" };
      }
    },
    async fillMissingNameKeys() {
      let filled = 0;
      for (;;) {
        const rows = await prisma.pet.findMany({
          select: { id: true, name: true },
          where: { nameKey: null },
          take: 1000,
        });
        if (rows.length === 0) return filled;
        await prisma.$transaction(
          rows.map(({ id, name }) =>
            prisma.pet.update({ select: { id: true }, where: { id }, data: { nameKey: nameKey(name) } }),
          ),
        );
        filled += rows.length;
      }
    },
    async deleteIdempotencyRecordsBefore(expiredBefore) {
      const { count } = await prisma.idempotencyRecord.deleteMany({ where: { createdAt: { lt: expiredBefore } } });
      return count;
    },
    async findById(id) {
      const [row] = await prepared<PetRow>(Prisma.sql`SELECT ${PET_COLUMNS} FROM "Pet" WHERE "id" = ${id}`);
      return row ? toPet(row) : null;
    },
  };
}

/** A pet's columns as Prisma writes them. */
function petData(pet: NewPet) {
  return { name: pet.name, nameKey: nameKey(pet.name), categoryId: BigInt(pet.categoryId), status: pet.status ?? null };
}

type TransactionClient = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * One keyed create, inside its transaction. The advisory lock on the key is
 * held until commit, by whichever replica got it first: a second create of
 * the key meanwhile does not wait but is answered "in-flight" (409); after the
 * commit it finds the record (READ COMMITTED reads what committed) and replays.
 */
async function createInTransaction(tx: TransactionClient, request: KeyedPetInsert): Promise<KeyedCreateOutcome> {
  const { scope, key, fingerprint, pet: newPet, locationOf, now, expiredBefore, audit } = request;
  const [lock] = await tx.$queryRaw<Array<{ acquired: boolean }>>`
    SELECT pg_try_advisory_xact_lock(${idempotencyLockId(scope, key)}::bigint) AS "acquired"`;
  if (!lock?.acquired) return { kind: "in-flight" };
  const where = { scope_key: { scope, key } };
  const record = await tx.idempotencyRecord.findUnique({ select: recordColumns, where });
  if (record && record.createdAt >= expiredBefore) return answerFromRecord(record, fingerprint);
  if (record) await tx.idempotencyRecord.delete({ where });
  const pet = toPet(
    await tx.pet.create({
      select: petColumns,
      data: petData(newPet),
    }),
  );
  const location = locationOf(pet);
  await tx.idempotencyRecord.create({
    data: { scope, key, fingerprint, status: 201, body: JSON.stringify(pet), location, createdAt: now },
  });
  if (audit)
    await recordActivity(
      tx,
      now,
      "pet.created",
      { type: "pet", id: pet.id, label: pet.name },
      audit,
      pet,
      createdChanges(pet),
    );
  return { kind: "created", pet, location };
}
