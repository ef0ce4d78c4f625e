import type Sqlite from "better-sqlite3";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import type { AuditContext } from "../access/audit.js";
import { sqliteAuditInsert } from "../access/keys/sqlite-access-repository.js";
import type { NewPet, Pet } from "@petstore/contract";
import { answerFromRecord, type IdempotencyRecordRow } from "./idempotent-create.js";
import type { KeyedPetInsert, KeyedCreateOutcome, PetRepository } from "./pet-repository.js";
import { toPet, type PetRow } from "./pet-row.js";

const COLUMNS = `"id", "name", "categoryId", "status"`;

/**
 * The SQLite hot path: prepared better-sqlite3 statements, compiled once, on
 * the connection `db` (opened with the API's SQLite pragmas). Prisma (its query
 * compilation and marshalling cost more than the query itself, measured by
 * bench/) stays the schema's owner: it migrates, and serves PostgreSQL.
 * See docs/decisions/005-sqlite-hot-path.md.
 *
 * Ids fit a JS number: the API accepts and assigns ids up to 2^53-1 only.
 */
export function createSqlitePetRepository(db: Sqlite.Database): PetRepository {
  // Prepared on first use: the file may not be migrated yet when the repository is made.
  let statements: ReturnType<typeof prepare> | undefined;
  const prepared = () => (statements ??= prepare(db));
  return {
    async list({ take, status, after }) {
      const { listAll, listByStatus } = prepared();
      const rows = status === undefined ? listAll.all(after ?? 0, take) : listByStatus.all(status, after ?? 0, take);
      return rows.map(toPet);
    },
    async create(pet, audit) {
      if (audit) return prepared().createAudited.immediate(pet, audit);
      return toPet(prepared().insert.get(pet.name, pet.categoryId, pet.status ?? null, timestamp(new Date()))!);
    },
    async createIdempotent(request) {
      // IMMEDIATE takes the write lock at BEGIN: another process on the file
      // waits (busy_timeout) until this commits, then finds the record and
      // replays it. In this process the transaction runs synchronously, so no
      // second create of the key can start before it ends: never "in-flight".
      return prepared().createIdempotent.immediate(request);
    },
    async deleteIdempotencyRecordsBefore(expiredBefore) {
      return prepared().deleteRecordsBefore.run(timestamp(expiredBefore)).changes;
    },
    async findById(id) {
      const row = prepared().byId.get(id);
      return row ? toPet(row) : null;
    },
  };
}


function prepare(db: Sqlite.Database) {
  const insert = db.prepare<[string, number, string | null, string], PetRow>(
    `INSERT INTO "Pet" ("name", "categoryId", "status", "createdAt") VALUES (?, ?, ?, ?) RETURNING ${COLUMNS}`,
  );
  const findRecord = db.prepare<[string, string], IdempotencyRecordRow & { createdAt: string }>(
    `SELECT "fingerprint", "body", "location", "createdAt" FROM "IdempotencyRecord" WHERE "scope" = ? AND "key" = ?`,
  );
  const deleteRecord = db.prepare<[string, string]>(`DELETE FROM "IdempotencyRecord" WHERE "scope" = ? AND "key" = ?`);
  const insertRecord = db.prepare<[string, string, string, number, string, string, string]>(
    `INSERT INTO "IdempotencyRecord" ("scope", "key", "fingerprint", "status", "body", "location", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const recordEvent = sqliteAuditInsert(db);
  const createAudited = db.transaction((newPet: NewPet, audit: AuditContext): Pet => {
    const now = new Date();
    const pet = toPet(insert.get(newPet.name, newPet.categoryId, newPet.status ?? null, timestamp(now))!);
    recordEvent(now, "pet.created", { type: "pet", id: pet.id, label: pet.name }, audit);
    return pet;
  });
  const createIdempotent = db.transaction((request: KeyedPetInsert): KeyedCreateOutcome => {
    const { scope, key, fingerprint, pet: newPet, locationOf, now, expiredBefore, audit } = request;
    const record = findRecord.get(scope, key);
    if (record && record.createdAt >= timestamp(expiredBefore)) return answerFromRecord(record, fingerprint);
    if (record) deleteRecord.run(scope, key);
    const createdAt = timestamp(now);
    const pet = toPet(insert.get(newPet.name, newPet.categoryId, newPet.status ?? null, createdAt)!);
    const location = locationOf(pet);
    insertRecord.run(scope, key, fingerprint, 201, JSON.stringify(pet), location, createdAt);
    if (audit) recordEvent(now, "pet.created", { type: "pet", id: pet.id, label: pet.name }, audit);
    return { kind: "created", pet, location };
  });
  return {
    listAll: db.prepare<[number, number], PetRow>(`SELECT ${COLUMNS} FROM "Pet" WHERE "id" > ? ORDER BY "id" ASC LIMIT ?`),
    listByStatus: db.prepare<[string, number, number], PetRow>(
      `SELECT ${COLUMNS} FROM "Pet" WHERE "status" = ? AND "id" > ? ORDER BY "id" ASC LIMIT ?`,
    ),
    byId: db.prepare<[number], PetRow>(`SELECT ${COLUMNS} FROM "Pet" WHERE "id" = ?`),
    insert,
    createAudited,
    createIdempotent,
    deleteRecordsBefore: db.prepare<[string]>(`DELETE FROM "IdempotencyRecord" WHERE "createdAt" < ?`),
  };
}
