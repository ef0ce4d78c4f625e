import type Sqlite from "better-sqlite3";
import { groupCommit } from "../data/sqlite-group-commit.js";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import type { AuditContext } from "../activity/audit-event.js";
import { sqliteActivityWriter } from "../activity/sqlite-activity-log.js";
import type { NewPet, Pet } from "@petstore/contract";
import { answerFromRecord, type IdempotencyRecordRow } from "./idempotent-create.js";
import { nameKey, nameKeyRange } from "./name-key.js";
import { createdChanges } from "./pet-changes.js";
import type { KeyedPetInsert, KeyedCreateOutcome, PetPageQuery, PetRepository } from "./pet-repository.js";
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
      const { take, status, after, name } = query;
      if (name !== undefined) return planNameSearch(db, query).all().map(toPet);
      const { listAll, listByStatus } = prepared();
      const rows = status === undefined ? listAll.all(after ?? 0, take) : listByStatus.all(status, after ?? 0, take);
      return rows.map(toPet);
    },
    async create(pet, audit) {
      if (audit) return prepared().createAudited({ pet, audit });
      return toPet(prepared().insert.get(pet.name, nameKey(pet.name), pet.categoryId, pet.status ?? null, timestamp(new Date()))!);
    },
    async fillMissingNameKeys() {
      const { withoutNameKey, setNameKey } = prepared();
      let filled = 0;
      for (;;) {
        const rows = withoutNameKey.all();
        if (rows.length === 0) return filled;
        db.transaction(() => {
          for (const { id, name } of rows) setNameKey.run(nameKey(name), id);
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
    async findById(id) {
      const row = prepared().byId.get(id);
      return row ? toPet(row) : null;
    },
  };
}


/**
 * SQLite orders TEXT before every BLOB: an empty blob is an upper bound above
 * every key, for the one range without an upper end (see prefixUpperBound).
 */
const ABOVE_EVERY_KEY = Buffer.alloc(0);

/** The least number of matches that makes walking the id order cheaper than sorting the range (below). */
const MIN_WALK_MATCHES = 200;

/** How a name search reads the table, and the statement with its parameters bound. */
export interface NameSearchPlan {
  /**
   * `range`: the (nameKey, id) index range, every match in it read and sorted
   * by id: few matches. `walk`: pets in id order (the primary key, or the
   * status+id index), each checked against the range, stopping at the page's
   * end: many matches, so a page is found long before the range would be read.
   */
  kind: "range" | "walk";
  /** The count of matches that chose `kind`. */
  count: { sql: string; params: unknown[] };
  sql: string;
  params: unknown[];
  all(): PetRow[];
}

/**
 * Chooses how to read a name search. SQLite's planner has no statistics on
 * key ranges (no STAT4 here), so it would always take the index range and
 * sort it, which for a prefix a tenth of a million pets share means reading and
 * sorting 100,000 rows per page. So the API counts the matches after `after`,
 * reading at most `cap` index entries (a covering index: no table rows), with
 * `cap` = sqrt(take x the span of ids left): fewer matches than `cap`, and
 * sorting them costs under `cap`; as many, and a walk in id order meets a page
 * after about take x span / matches <= `cap` rows, if the matches are spread
 * over the ids. Either way a page costs O(sqrt(take x pets)), never the whole
 * range. docs/decisions/011-name-search.md.
 */
export function planNameSearch(db: Sqlite.Database, { take, status, after = 0, name }: PetPageQuery): NameSearchPlan {
  const statements = statementsOf(db);
  const { from, to } = nameKeyRange(name ?? "");
  const upper = to ?? ABOVE_EVERY_KEY;
  const maxId = statements.maxId.get()?.maxId ?? 0;
  const cap = Math.max(MIN_WALK_MATCHES, Math.ceil(Math.sqrt(take * Math.max(0, maxId - after))));
  const countParams = [from, upper, after, cap] as const;
  const matches = statements.countNameMatches.get(...countParams)?.n ?? 0;
  const kind = matches < cap ? "range" : "walk";
  const statement = statements.nameSearch[kind][status === undefined ? "all" : "byStatus"];
  const params = status === undefined ? [from, upper, after, take] : [from, upper, status, after, take];
  return {
    kind,
    count: { sql: statements.countNameMatches.source, params: [...countParams] },
    sql: statement.source,
    params,
    all: () => statement.all(...params),
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
  const recordEvent = sqliteActivityWriter(db);
  // The pet and its activity event commit together; concurrent creates share one commit (groupCommit).
  const createAudited = groupCommit(db, ({ pet: newPet, audit }: { pet: NewPet; audit: AuditContext }): Pet => {
    const now = new Date();
    const pet = toPet(insert.get(newPet.name, nameKey(newPet.name), newPet.categoryId, newPet.status ?? null, timestamp(now))!);
    recordEvent(now, "pet.created", { type: "pet", id: pet.id, label: pet.name }, audit, pet, createdChanges(pet));
    return pet;
  });
  const createIdempotent = db.transaction((request: KeyedPetInsert): KeyedCreateOutcome => {
    const { scope, key, fingerprint, pet: newPet, locationOf, now, expiredBefore, audit } = request;
    const record = findRecord.get(scope, key);
    if (record && record.createdAt >= timestamp(expiredBefore)) return answerFromRecord(record, fingerprint);
    if (record) deleteRecord.run(scope, key);
    const createdAt = timestamp(now);
    const pet = toPet(insert.get(newPet.name, nameKey(newPet.name), newPet.categoryId, newPet.status ?? null, createdAt)!);
    const location = locationOf(pet);
    insertRecord.run(scope, key, fingerprint, 201, JSON.stringify(pet), location, createdAt);
    if (audit) recordEvent(now, "pet.created", { type: "pet", id: pet.id, label: pet.name }, audit, pet, createdChanges(pet));
    return { kind: "created", pet, location };
  });
  return {
    listAll: db.prepare<[number, number], PetRow>(`SELECT ${COLUMNS} FROM "Pet" WHERE "id" > ? ORDER BY "id" ASC LIMIT ?`),
    listByStatus: db.prepare<[string, number, number], PetRow>(
      `SELECT ${COLUMNS} FROM "Pet" WHERE "status" = ? AND "id" > ? ORDER BY "id" ASC LIMIT ?`,
    ),
    byId: db.prepare<[number], PetRow>(`SELECT ${COLUMNS} FROM "Pet" WHERE "id" = ?`),
    maxId: db.prepare<[], { maxId: number | null }>(`SELECT max("id") AS "maxId" FROM "Pet"`),
    countNameMatches: db.prepare<[string, string | Buffer, number, number], { n: number }>(
      `SELECT count(*) AS "n" FROM (SELECT 1 FROM "Pet" INDEXED BY "Pet_nameKey_id_idx"
       WHERE "nameKey" >= ? AND "nameKey" < ? AND "id" > ? LIMIT ?)`,
    ),
    nameSearch: {
      // INDEXED BY: the range, whatever the planner would guess.
      range: {
        all: db.prepare<unknown[], PetRow>(
          `SELECT ${COLUMNS} FROM "Pet" INDEXED BY "Pet_nameKey_id_idx"
           WHERE "nameKey" >= ? AND "nameKey" < ? AND "id" > ? ORDER BY "id" ASC LIMIT ?`,
        ),
        byStatus: db.prepare<unknown[], PetRow>(
          `SELECT ${COLUMNS} FROM "Pet" INDEXED BY "Pet_nameKey_id_idx"
           WHERE "nameKey" >= ? AND "nameKey" < ? AND "status" = ? AND "id" > ? ORDER BY "id" ASC LIMIT ?`,
        ),
      },
      // The unary + keeps the planner off the nameKey index: the id order (or status+id) is walked instead.
      walk: {
        all: db.prepare<unknown[], PetRow>(
          `SELECT ${COLUMNS} FROM "Pet"
           WHERE +"nameKey" >= ? AND +"nameKey" < ? AND "id" > ? ORDER BY "id" ASC LIMIT ?`,
        ),
        byStatus: db.prepare<unknown[], PetRow>(
          `SELECT ${COLUMNS} FROM "Pet" INDEXED BY "Pet_status_id_idx"
           WHERE +"nameKey" >= ? AND +"nameKey" < ? AND "status" = ? AND "id" > ? ORDER BY "id" ASC LIMIT ?`,
        ),
      },
    },
    withoutNameKey: db.prepare<[], { id: number; name: string }>(
      `SELECT "id", "name" FROM "Pet" WHERE "nameKey" IS NULL LIMIT 1000`,
    ),
    setNameKey: db.prepare<[string, number]>(`UPDATE "Pet" SET "nameKey" = ? WHERE "id" = ?`),
    insert,
    createAudited,
    createIdempotent,
    deleteRecordsBefore: db.prepare<[string]>(`DELETE FROM "IdempotencyRecord" WHERE "createdAt" < ?`),
  };
}
