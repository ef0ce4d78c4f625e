/**
 * Bulk seeding. SQLite: one transaction of a prepared insert straight into a
 * file migrated by the API's own migrateDatabase (prisma migrate deploy).
 * PostgreSQL: one INSERT ... SELECT over generate_series.
 */
import Sqlite from "better-sqlite3";
import pg from "pg";
import { seededCategoryOf } from "./scenarios.js";

/**
 * Names: a tenth of the pets share the first word `bella` (every tenth id, so
 * spread over the ids); every other name is its own (`pet 4242` is a rare
 * prefix), and a ninth of the names have a later word starting with `1`.
 * Search keys are lower case: names of ASCII letters, digits and single spaces
 * fold to that (name-key.ts). A build with the word search has PetWord, the
 * later words' index, filled here too.
 */
export const nameOf = (n: number): string => (n % 10 === 0 ? `Bella ${n}` : `pet ${n}`);
const NAME_SQL = `CASE WHEN n % 10 = 0 THEN 'Bella ' || n ELSE 'pet ' || n END`;

/** A store's history: most pets sold long ago, a few available or pending, some with no status. */
export const statusOf = (n: number): string | null =>
  n % 50 === 0 ? "available" : n % 50 < 4 ? "pending" : n % 50 < 6 ? null : "sold";
/**
 * Categories (seededCategoryOf, 1 + n % 100: getInventory's budget is for 1M pets over 100 categories):
 * updatePet's patches test them, so both databases seed the same.
 */
const CATEGORY_SQL = `1 + n % 100`;
const STATUS_SQL = `CASE WHEN n % 50 = 0 THEN 'available' WHEN n % 50 < 4 THEN 'pending' WHEN n % 50 < 6 THEN NULL ELSE 'sold' END`;

export function seedSqlite(file: string, rows: number): void {
  const db = new Sqlite(file);
  try {
    const insert = db.prepare(
      `INSERT INTO "Pet" ("id", "name", "nameKey", "categoryId", "status") VALUES (?, ?, ?, ?, ?)`,
    );
    // A build with the word search keeps each later word's key in "PetWord" (the API writes it beside each
    // pet on SQLite): filled here in one statement, as its migration fills it (0014_word_search).
    const worded =
      db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'PetWord'`).get() !== undefined;
    db.transaction(() => {
      for (let n = 1; n <= rows; n++)
        insert.run(n, nameOf(n), nameOf(n).toLowerCase(), seededCategoryOf(n), statusOf(n));
      if (worded) {
        db.exec(`INSERT INTO "PetWord" ("key", "petId")
          SELECT "wordKey", "id" FROM (
            SELECT "Pet"."id", "word"."key" AS "position",
              substr("Pet"."nameKey", sum(length("word"."value") + 1) OVER (PARTITION BY "Pet"."id" ORDER BY "word"."key") - length("word"."value")) AS "wordKey"
            FROM "Pet", json_each('["' || replace("Pet"."nameKey", ' ', '","') || '"]') AS "word"
            WHERE instr("Pet"."nameKey", ' ') > 0
          ) WHERE "position" > 0`);
      }
    })();
  } finally {
    db.close();
  }
}

export async function seedPostgres(url: string, rows: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`TRUNCATE "Pet" RESTART IDENTITY`);
    // A bulk load as an operator would run one: the counting trigger off for the insert, the counts
    // made once from the table after it (a row trigger per pet made a 1M seed 4 minutes instead of seconds).
    // (A baseline build's schema, before the counts: no trigger, no table.)
    // The same for the word index (a build before the word search has neither trigger nor table).
    const counted = (await client.query(`SELECT 1 FROM pg_trigger WHERE tgname = 'Pet_counted_insert'`)).rowCount === 1;
    const worded = (await client.query(`SELECT 1 FROM pg_trigger WHERE tgname = 'Pet_words_insert'`)).rowCount === 1;
    if (counted) await client.query(`ALTER TABLE "Pet" DISABLE TRIGGER "Pet_counted_insert"`);
    if (worded) await client.query(`ALTER TABLE "Pet" DISABLE TRIGGER "Pet_words_insert"`);
    try {
      await client.query(
        `INSERT INTO "Pet" ("name", "nameKey", "categoryId", "status")
         SELECT ${NAME_SQL}, lower(${NAME_SQL}), ${CATEGORY_SQL}, ${STATUS_SQL} FROM generate_series(1, ${rows}) AS n`,
      );
    } finally {
      if (counted) await client.query(`ALTER TABLE "Pet" ENABLE TRIGGER "Pet_counted_insert"`);
      if (worded) await client.query(`ALTER TABLE "Pet" ENABLE TRIGGER "Pet_words_insert"`);
    }
    if (worded) {
      await client.query(
        `INSERT INTO "PetWord" ("key", "petId") SELECT "wordKey", "id" FROM "Pet", "Pet_word_keys"("nameKey") AS "wordKey" WHERE strpos("nameKey", ' ') > 0`,
      );
      await client.query(`VACUUM ANALYZE "PetWord"`);
    }
    if (counted) {
      await client.query(`DELETE FROM "PetCount"`);
      await client.query(
        // Spread over the 16 slots, as a store that grew by createPet has them (the inventory sums every slot).
        `INSERT INTO "PetCount" ("categoryId", "status", "slot", "count")
         SELECT "categoryId", coalesce("status", ''), "id" % 16, count(*) FROM "Pet" GROUP BY "categoryId", coalesce("status", ''), "id" % 16`,
      );
    }
    // What autovacuum would do shortly after a bulk load.
    await client.query(`VACUUM ANALYZE "Pet"`);
  } finally {
    await client.end();
  }
}

/** Deletes the pets a server's createPet added, so the next server meets the seeded table. */
export async function trimPostgres(url: string, rows: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DELETE FROM "Pet" WHERE "id" > $1`, [rows]);
    await client.query(`VACUUM ANALYZE "Pet"`);
  } finally {
    await client.end();
  }
}

/** The filtered page the API asks for (status, id order, limit+1), as each provider plans it. */
export const FILTERED_QUERY_SQLITE = `SELECT "id", "name", "categoryId", "status" FROM "Pet" WHERE "status" = 'available' ORDER BY "id" ASC LIMIT 101`;

export function explainSqlite(file: string): string {
  const db = new Sqlite(file, { readonly: true });
  try {
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${FILTERED_QUERY_SQLITE}`).all() as Array<{ detail: string }>;
    return rows.map((row) => row.detail).join("\n");
  } finally {
    db.close();
  }
}

export async function explainPostgres(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(`EXPLAIN ${FILTERED_QUERY_SQLITE}`);
    return rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
  } finally {
    await client.end();
  }
}
