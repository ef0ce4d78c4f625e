import type Sqlite from "better-sqlite3";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analysedPostgres, analysedSqlite, sqlitePlan } from "../test/analysed-databases.js";
import { TEST_PROVIDERS } from "../test/test-app.js";

const ROWS = 100_000;
// A store's history: most pets sold long ago, a few available or pending, some unset.
const STATUS_SQL = `CASE WHEN n % 50 = 0 THEN 'available' WHEN n % 50 < 4 THEN 'pending' WHEN n % 50 < 6 THEN NULL ELSE 'sold' END`;
const statusOf = (n: number) => (n % 50 === 0 ? "available" : n % 50 < 4 ? "pending" : n % 50 < 6 ? null : "sold");
// The shape of the listPets query: status filter, id order, limit (+1 for the next-page check).
const FILTERED_PAGE = `SELECT "id", "name", "categoryId", "status" FROM "Pet" WHERE "status" = 'available' ORDER BY "id" ASC LIMIT 21`;
const FILTERED_PAGE_AFTER = `SELECT "id", "name", "categoryId", "status" FROM "Pet" WHERE "status" = 'available' AND "id" > 50000 ORDER BY "id" ASC LIMIT 101`;

describe.runIf(TEST_PROVIDERS.includes("postgresql"))(
  "PostgreSQL: the status+id index serves a filtered, limited list",
  () => {
    let database: Awaited<ReturnType<typeof analysedPostgres>>;
    let client: pg.Client;

    beforeAll(async () => {
      database = await analysedPostgres(
        `INSERT INTO "Pet" ("name", "categoryId", "status")
       SELECT 'pet ' || n, 1 + n % 10, ${STATUS_SQL}
       FROM generate_series(1, ${ROWS}) AS n`,
      );
      client = database.client;
    }, 60_000);
    afterAll(() => database?.close());

    it("has a bigint id and a CHECK on status", async () => {
      const { rows } = await client.query(
        `SELECT data_type FROM information_schema.columns WHERE table_name = 'Pet' AND column_name = 'id'`,
      );
      expect(rows[0]?.data_type).toBe("bigint");
      await expect(
        client.query(`INSERT INTO "Pet" ("name", "categoryId", "status") VALUES ('x', 1, 'adopted')`),
      ).rejects.toThrow(/Pet_status_check/);
    });

    it.each([FILTERED_PAGE, FILTERED_PAGE_AFTER])("uses Pet_status_id_idx, no sort: %s", async (query) => {
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${query}`);
      const plan = JSON.stringify(rows[0]["QUERY PLAN"]);
      expect(plan).toContain('"Index Name":"Pet_status_id_idx"');
      expect(plan).not.toContain('"Node Type":"Sort"');
      expect(plan).not.toContain('"Node Type":"Seq Scan"');
    });

    it("the repository's prepared statement (the status in its text) keeps the index in its generic plan", async () => {
      // prisma-pet-repository.ts's list, planned once per connection with the page's start and size as
      // parameters. A generic plan is what PostgreSQL settles on after five executions; forced here.
      await client.query("SET plan_cache_mode = force_generic_plan");
      await client.query(
        `PREPARE filtered_page(bigint, int) AS SELECT "id", "name", "categoryId", "status" FROM "Pet" WHERE "status" = 'available' AND "id" > $1 ORDER BY "id" ASC LIMIT $2`,
      );
      try {
        const { rows } = await client.query(`EXPLAIN (FORMAT JSON) EXECUTE filtered_page(50000, 101)`);
        const plan = JSON.stringify(rows[0]["QUERY PLAN"]);
        expect(plan).toContain('"Index Name":"Pet_status_id_idx"');
        expect(plan).not.toContain('"Node Type":"Sort"');
      } finally {
        await client.query("DEALLOCATE filtered_page");
        await client.query("RESET plan_cache_mode");
      }
    });
  },
);

describe("SQLite: the status+id index serves a filtered, limited list", () => {
  let database: Awaited<ReturnType<typeof analysedSqlite>>;
  let sqlite: Sqlite.Database;

  beforeAll(async () => {
    database = await analysedSqlite((db) => {
      const insert = db.prepare(`INSERT INTO "Pet" ("name", "categoryId", "status") VALUES (?, ?, ?)`);
      for (let n = 1; n <= ROWS; n++) insert.run(`pet ${n}`, 1 + (n % 10), statusOf(n));
    });
    sqlite = database.sqlite;
  }, 60_000);
  afterAll(() => database?.close());

  it.each([FILTERED_PAGE, FILTERED_PAGE_AFTER])("uses Pet_status_id_idx, no temp b-tree: %s", (query) => {
    const plan = sqlitePlan(sqlite, query);
    expect(plan).toMatch(/SEARCH Pet USING (COVERING )?INDEX Pet_status_id_idx \(status=\?/);
    expect(plan).not.toContain("TEMP B-TREE");
  });

  it("rejects an unknown status at the database too (CHECK)", () => {
    expect(() =>
      sqlite.prepare(`INSERT INTO "Pet" ("name", "categoryId", "status") VALUES ('x', 1, 'adopted')`).run(),
    ).toThrow(/CHECK constraint failed/);
  });
});
