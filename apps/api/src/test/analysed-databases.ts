import Sqlite from "better-sqlite3";
import pg from "pg";
import { sqliteFilePath } from "../base/database-url.js";
import { postgresRunner, type SqlRunner } from "../data/sql-work.js";
import { freshDatabase } from "./test-app.js";

/**
 * Fresh migrated databases filled with many pets and analysed, for tests that
 * read query plans: the planner picks an index only when the table is large
 * and its statistics say so.
 */
export async function analysedPostgres(fillSql: string): Promise<{ client: pg.Client; close(): Promise<void> }> {
  const database = await freshDatabase("postgresql");
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  // A bulk load as an operator runs one (docs/decisions/046): the counting trigger off for it, the counts
  // made once after. Row by row, one statement's 100,000 upserts of the same few count rows would each
  // leave a row version behind for the next to step over: minutes instead of a second.
  await client.query(`ALTER TABLE "Pet" DISABLE TRIGGER "Pet_counted_insert"`);
  try {
    await client.query(fillSql);
  } finally {
    await client.query(`ALTER TABLE "Pet" ENABLE TRIGGER "Pet_counted_insert"`);
  }
  await client.query(
    `INSERT INTO "PetCount" ("categoryId", "status", "slot", "count")
     SELECT "categoryId", coalesce("status", ''), 0, count(*) FROM "Pet" GROUP BY "categoryId", coalesce("status", '')`,
  );
  await client.query(`ANALYZE "Pet"`);
  return {
    client,
    async close() {
      await client.end();
      await database.remove();
    },
  };
}

/** `fill` runs in one transaction. */
export async function analysedSqlite(
  fill: (sqlite: Sqlite.Database) => void,
): Promise<{ sqlite: Sqlite.Database; close(): Promise<void> }> {
  const database = await freshDatabase("sqlite");
  const sqlite = new Sqlite(sqliteFilePath(database.url));
  sqlite.transaction(() => fill(sqlite))();
  sqlite.exec(`ANALYZE`);
  return {
    sqlite,
    async close() {
      sqlite.close();
      await database.remove();
    },
  };
}

/** SQLite's plan of `sql`, a line a step. */
export const sqlitePlan = (sqlite: Sqlite.Database, sql: string, params: unknown[] = []) =>
  (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>)
    .map((row) => row.detail)
    .join("\n");

/** A runner for reads on `client` (the units of work of a listing), as the API's is on PostgreSQL; it refuses transactions. */
export function readingPostgresRunner(client: pg.Client): SqlRunner {
  const query = async (text: string, ...values: unknown[]) => (await client.query(text, values)).rows;
  const execute = async (text: string, ...values: unknown[]) => (await client.query(text, values)).rowCount ?? 0;
  return postgresRunner({
    $queryRawUnsafe: query as never,
    $executeRawUnsafe: execute,
    $transaction: (() => Promise.reject(new Error("reads only"))) as never,
  });
}
