import type Sqlite from "better-sqlite3";
import { groupCommit } from "../data/sqlite-group-commit.js";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import type { AuditContext } from "../activity/audit-event.js";
import { sqliteActivityWriter } from "../activity/sqlite-activity-log.js";
import type { NewPet, Pet } from "@petstore/contract";
import { answerFromRecord, type IdempotencyRecordRow } from "./idempotent-create.js";
import { nameKey } from "./name-key.js";
import type { PetChangeCall, PetChangeOutcome } from "./pet-change-types.js";
import { createdChanges, planUpdate } from "./pet-changes.js";
import { laterWordKeys } from "./pet-words.js";
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
  const prepared = () => statementsOf(db);
  return {
    async list(query) {
      const { take, status, after } = query;
      const { listAll, listByStatus } = prepared();
      const rows = status === undefined ? listAll.all(after ?? 0, take) : listByStatus.all(status, after ?? 0, take);
      return rows.map(toPet);
    },
    async create(pet, audit) {
      if (audit) return prepared().createAudited({ pet, audit });
      return prepared().insertPet(pet, timestamp(new Date()));
    },
    async fillMissingNameKeys() {
      const { withoutNameKey, setNameKey, insertWord } = prepared();
      let filled = 0;
      for (;;) {
        const rows = withoutNameKey.all();
        if (rows.length === 0) return filled;
        db.transaction(() => {
          // Keyless pets have no "PetWord" rows: the key was never set, or a migration cleared it with them.
          for (const { id, name } of rows) {
            const key = nameKey(name);
            setNameKey.run(key, id);
            for (const wordKey of laterWordKeys(key)) insertWord.run(wordKey, id);
          }
        })();
        filled += rows.length;
      }
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
    updateUnkeyed(call, at) {
      return prepared().updateAudited({ call, at });
    },
    async findById(id) {
      const row = prepared().byId.get(id);
      return row ? toPet(row) : null;
    },
  };
}

type SqlitePetStatements = ReturnType<typeof prepareStatements>;

const statementsByConnection = new WeakMap<Sqlite.Database, SqlitePetStatements>();

/** Every statement the repository runs, prepared once per connection. */
function statementsOf(db: Sqlite.Database): SqlitePetStatements {
  let statements = statementsByConnection.get(db);
  if (!statements) {
    statements = prepareStatements(db);
    statementsByConnection.set(db, statements);
  }
  return statements;
}

function prepareStatements(db: Sqlite.Database) {
  const insert = db.prepare<[string, string, number, string | null, string], PetRow>(
    `INSERT INTO "Pet" ("name", "nameKey", "categoryId", "status", "createdAt") VALUES (?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
  );
  const findRecord = db.prepare<[string, string], IdempotencyRecordRow & { createdAt: string }>(
    `SELECT "fingerprint", "body", "location", "createdAt" FROM "IdempotencyRecord" WHERE "scope" = ? AND "key" = ?`,
  );
  const deleteRecord = db.prepare<[string, string]>(`DELETE FROM "IdempotencyRecord" WHERE "scope" = ? AND "key" = ?`);
  const insertRecord = db.prepare<[string, string, string, number, string, string, string]>(
    `INSERT INTO "IdempotencyRecord" ("scope", "key", "fingerprint", "status", "body", "location", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertWord = db.prepare<[string, number]>(`INSERT INTO "PetWord" ("key", "petId") VALUES (?, ?)`);
  /** A new pet and its later words' keys (pet-words.ts). */
  const insertPet = (newPet: NewPet, createdAt: string): Pet => {
    const key = nameKey(newPet.name);
    const pet = toPet(insert.get(newPet.name, key, newPet.categoryId, newPet.status ?? null, createdAt)!);
    for (const wordKey of laterWordKeys(key)) insertWord.run(wordKey, pet.id);
    return pet;
  };
  const recordEvent = sqliteActivityWriter(db);
  // The pet and its activity event commit together; concurrent creates share one commit (groupCommit).
  const createAudited = groupCommit(db, ({ pet: newPet, audit }: { pet: NewPet; audit: AuditContext }): Pet => {
    const now = new Date();
    const pet = insertPet(newPet, timestamp(now));
    recordEvent(now, "pet.created", { type: "pet", id: pet.id, label: pet.name }, audit, pet, createdChanges(pet));
    return pet;
  });
  const byId = db.prepare<[number], PetRow>(`SELECT ${COLUMNS} FROM "Pet" WHERE "id" = ?`);
  const deleteWord = db.prepare<[string, number]>(`DELETE FROM "PetWord" WHERE "key" = ? AND "petId" = ?`);
  /** An UPDATE per set of changed columns (at most seven): only those are set, as pet-changes.ts's updatePet does. */
  const updates = new Map<string, Sqlite.Statement>();
  /**
   * updatePet without an Idempotency-Key: pet-changes.ts's unit of work on these prepared statements,
   * committed with the other writes of its turn like a create (decision 057). The same reads, writes and
   * answers; the keyed form, deletePet and restorePet stay on the unit of work.
   */
  const updateAudited = groupCommit(
    db,
    ({ call, at }: { call: PetChangeCall & { request: { operation: "updatePet" } }; at: Date }): PetChangeOutcome => {
      const { petId, patch } = call.request;
      const row = byId.get(petId);
      if (!row) return { kind: "not-found" };
      const stored = toPet(row);
      const planned = planUpdate(stored, patch, call.mayReturnSold);
      if (planned.kind === "answer") return planned.outcome;
      const { pet, key } = planned;
      const sets: string[] = [];
      const values: Array<string | number | null> = [];
      if (key !== undefined) {
        sets.push(`"name" = ?, "nameKey" = ?`);
        values.push(pet.name, key);
      }
      if (planned.categoryChanged) {
        sets.push(`"categoryId" = ?`);
        values.push(pet.categoryId);
      }
      if (planned.statusChanged) {
        sets.push(`"status" = ?`);
        values.push(pet.status ?? null);
      }
      const columns = sets.join(", ");
      let update = updates.get(columns);
      if (!update) updates.set(columns, (update = db.prepare(`UPDATE "Pet" SET ${columns} WHERE "id" = ?`)));
      update.run(...values, petId);
      if (key !== undefined) {
        for (const wordKey of laterWordKeys(nameKey(stored.name))) deleteWord.run(wordKey, petId);
        for (const wordKey of laterWordKeys(key)) insertWord.run(wordKey, petId);
      }
      const target = { type: "pet" as const, id: petId, label: pet.name };
      const data = { pet, previousAttributes: planned.previousAttributes };
      recordEvent(at, "pet.updated", target, call.audit, data, planned.changes);
      return { kind: "done", status: 200, pet, replayed: false };
    },
  );
  const createIdempotent = db.transaction((request: KeyedPetInsert): KeyedCreateOutcome => {
    const { scope, key, fingerprint, pet: newPet, locationOf, now, expiredBefore, audit } = request;
    const record = findRecord.get(scope, key);
    if (record && record.createdAt >= timestamp(expiredBefore)) return answerFromRecord(record, fingerprint);
    if (record) deleteRecord.run(scope, key);
    const createdAt = timestamp(now);
    const pet = insertPet(newPet, createdAt);
    const location = locationOf(pet);
    insertRecord.run(scope, key, fingerprint, 201, JSON.stringify(pet), location, createdAt);
    if (audit)
      recordEvent(now, "pet.created", { type: "pet", id: pet.id, label: pet.name }, audit, pet, createdChanges(pet));
    return { kind: "created", pet, location };
  });
  return {
    listAll: db.prepare<[number, number], PetRow>(
      `SELECT ${COLUMNS} FROM "Pet" WHERE "id" > ? ORDER BY "id" ASC LIMIT ?`,
    ),
    listByStatus: db.prepare<[string, number, number], PetRow>(
      `SELECT ${COLUMNS} FROM "Pet" WHERE "status" = ? AND "id" > ? ORDER BY "id" ASC LIMIT ?`,
    ),
    byId,
    withoutNameKey: db.prepare<[], { id: number; name: string }>(
      `SELECT "id", "name" FROM "Pet" WHERE "nameKey" IS NULL LIMIT 1000`,
    ),
    setNameKey: db.prepare<[string, number]>(`UPDATE "Pet" SET "nameKey" = ? WHERE "id" = ?`),
    insertPet,
    insertWord,
    createAudited,
    createIdempotent,
    updateAudited,
    deleteRecordsBefore: db.prepare<[string]>(`DELETE FROM "IdempotencyRecord" WHERE "createdAt" < ?`),
  };
}
