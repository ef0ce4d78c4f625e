import type Sqlite from "better-sqlite3";
import type { PetRepository } from "./pet-repository.js";
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
    async create(pet) {
      // createdAt as Prisma writes it, so rows read back alike whichever client wrote them.
      const createdAt = new Date().toISOString().replace("Z", "+00:00");
      return toPet(prepared().insert.get(pet.name, pet.categoryId, pet.status ?? null, createdAt)!);
    },
    async findById(id) {
      const row = prepared().byId.get(id);
      return row ? toPet(row) : null;
    },
  };
}

function prepare(db: Sqlite.Database) {
  return {
    listAll: db.prepare<[number, number], PetRow>(`SELECT ${COLUMNS} FROM "Pet" WHERE "id" > ? ORDER BY "id" ASC LIMIT ?`),
    listByStatus: db.prepare<[string, number, number], PetRow>(
      `SELECT ${COLUMNS} FROM "Pet" WHERE "status" = ? AND "id" > ? ORDER BY "id" ASC LIMIT ?`,
    ),
    byId: db.prepare<[number], PetRow>(`SELECT ${COLUMNS} FROM "Pet" WHERE "id" = ?`),
    insert: db.prepare<[string, number, string | null, string], PetRow>(
      `INSERT INTO "Pet" ("name", "categoryId", "status", "createdAt") VALUES (?, ?, ?, ?) RETURNING ${COLUMNS}`,
    ),
  };
}
