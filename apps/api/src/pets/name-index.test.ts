import type Sqlite from "better-sqlite3";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analysedPostgres, analysedSqlite, sqlitePlan } from "../test/analysed-databases.js";
import { TEST_PROVIDERS } from "../test/test-app.js";
import { nameKeyRange } from "./name-key.js";
import { planNameSearch } from "./sqlite-pet-repository.js";

const ROWS = 100_000;
// A tenth of the pets share a prefix ("bella"), spread over the ids; every other name is its own.
// Names are ASCII, so lower() is their search key.
const NAME_SQL = `CASE WHEN n % 10 = 0 THEN 'Bella ' || n ELSE 'pet-' || n END`;
const nameOf = (n: number) => (n % 10 === 0 ? `Bella ${n}` : `pet-${n}`);
const STATUS_SQL = `CASE WHEN n % 50 = 0 THEN 'available' WHEN n % 3 = 0 THEN NULL ELSE 'sold' END`;
const statusOf = (n: number) => (n % 50 === 0 ? "available" : n % 3 === 0 ? null : "sold");
/** `pet-4242`, `pet-42421`..`pet-42429` (11 pets): rare. */
const RARE = "pet-4242";
const SHARED = "bella";
const COLUMNS = `"id", "name", "categoryId", "status"`;

/** The listPets query of a name search as Prisma sends it (first page, limit 20 + 1). */
const pgSearch = (prefix: string, extra = "") => {
  const { from, to } = nameKeyRange(prefix);
  return `SELECT ${COLUMNS} FROM "Pet" WHERE "nameKey" >= '${from}' AND "nameKey" < '${to}'${extra} ORDER BY "id" ASC LIMIT 21`;
};

describe.runIf(TEST_PROVIDERS.includes("postgresql"))("PostgreSQL: a name search reads an index, never the whole range", () => {
  let database: Awaited<ReturnType<typeof analysedPostgres>>;
  let client: pg.Client;

  beforeAll(async () => {
    database = await analysedPostgres(
      `INSERT INTO "Pet" ("name", "nameKey", "categoryId", "status")
       SELECT ${NAME_SQL}, lower(${NAME_SQL}), 1, ${STATUS_SQL} FROM generate_series(1, ${ROWS}) AS n`,
    );
    client = database.client;
  }, 60_000);
  afterAll(() => database?.close());

  const plan = async (query: string) => {
    const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`);
    return rows[0]["QUERY PLAN"] as Array<{ Plan: PlanNode }>;
  };
  interface PlanNode {
    "Node Type": string;
    "Index Name"?: string;
    "Actual Rows": number;
    "Rows Removed by Filter"?: number;
    Plans?: PlanNode[];
  }
  const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

  it("keys the column in code point order (COLLATE \"C\")", async () => {
    const { rows } = await client.query(
      `SELECT collation_name FROM information_schema.columns WHERE table_name = 'Pet' AND column_name = 'nameKey'`,
    );
    expect(rows[0]?.collation_name).toBe("C");
  });

  it.each(["", ` AND "status" = 'sold'`])("a rare prefix is a range of Pet_nameKey_id_idx, no scan%s", async (extra) => {
    const [root] = await plan(pgSearch(RARE, extra));
    const all = nodes(root!.Plan);
    expect(all.some((node) => node["Index Name"] === "Pet_nameKey_id_idx")).toBe(true);
    expect(all.some((node) => node["Node Type"] === "Seq Scan")).toBe(false);
    // The index range holds the 11 matches; nothing else is read.
    const scan = all.find((node) => node["Index Name"] === "Pet_nameKey_id_idx")!;
    expect(scan["Actual Rows"] + (scan["Rows Removed by Filter"] ?? 0)).toBeLessThanOrEqual(11);
  });

  it.each(["", ` AND "status" = 'sold'`])(
    "a prefix a tenth of the pets share: the first page reads a few hundred rows in id order, not the 10,000 of the range%s",
    async (extra) => {
      const [root] = await plan(pgSearch(SHARED, extra));
      const all = nodes(root!.Plan);
      expect(all.some((node) => node["Node Type"] === "Sort")).toBe(false);
      expect(all.some((node) => node["Node Type"] === "Seq Scan")).toBe(false);
      const read = all
        .filter((node) => node["Node Type"].includes("Index"))
        .reduce((sum, node) => sum + node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0), 0);
      expect(read).toBeLessThan(1_000);
    },
  );
});

describe("SQLite: a name search reads an index, never the whole range", () => {
  let database: Awaited<ReturnType<typeof analysedSqlite>>;
  let sqlite: Sqlite.Database;

  beforeAll(async () => {
    database = await analysedSqlite((db) => {
      const insert = db.prepare(`INSERT INTO "Pet" ("name", "nameKey", "categoryId", "status") VALUES (?, ?, 1, ?)`);
      for (let n = 1; n <= ROWS; n++) insert.run(nameOf(n), nameOf(n).toLowerCase(), statusOf(n));
    });
    sqlite = database.sqlite;
  }, 60_000);
  afterAll(() => database?.close());

  const explain = (sql: string, params: unknown[]) => sqlitePlan(sqlite, sql, params);

  it.each([undefined, "sold" as const])("a rare prefix is a range of Pet_nameKey_id_idx, sorted (status %s)", (status) => {
    const search = planNameSearch(sqlite, { take: 21, name: RARE, status });
    expect(search.kind).toBe("range");
    const plan = explain(search.sql, search.params);
    expect(plan).toMatch(/SEARCH Pet USING INDEX Pet_nameKey_id_idx \(nameKey>\? AND nameKey<\?\)/);
    expect(plan).not.toMatch(/^SCAN/m);
    expect(search.all().map((row) => row.name)).toEqual(
      ["pet-4242", ...Array.from({ length: 9 }, (_, i) => `pet-4242${i + 1}`)].filter((name) =>
        status === undefined ? true : statusOf(Number(name.slice(4))) === status,
      ),
    );
  });

  it.each([undefined, "sold" as const])(
    "a prefix a tenth of the pets share walks the id order and stops at the page, no sort (status %s)",
    (status) => {
      const search = planNameSearch(sqlite, { take: 21, name: SHARED, status });
      expect(search.kind).toBe("walk");
      const plan = explain(search.sql, search.params);
      expect(plan).not.toContain("Pet_nameKey_id_idx");
      expect(plan).not.toContain("TEMP B-TREE");
      if (status) expect(plan).toMatch(/SEARCH Pet USING INDEX Pet_status_id_idx \(status=\? AND id>\?\)/);
      const expected = Array.from({ length: ROWS / 10 }, (_, i) => (i + 1) * 10)
        .filter((n) => status === undefined || statusOf(n) === status)
        .slice(0, 21)
        .map(nameOf);
      expect(search.all().map((row) => row.name)).toEqual(expected);
    },
  );

  it("the count that chooses reads the covering index only, and at most its cap", () => {
    const { count } = planNameSearch(sqlite, { take: 21, name: SHARED });
    expect(count.params.at(-1)).toBe(Math.ceil(Math.sqrt(21 * ROWS)));
    const plan = explain(count.sql, count.params);
    expect(plan).toMatch(/SEARCH Pet USING COVERING INDEX Pet_nameKey_id_idx \(nameKey>\? AND nameKey<\?\)/);
  });

  it("past the last shared match, what is left of the range is small again: a range", () => {
    const search = planNameSearch(sqlite, { take: 21, name: SHARED, after: ROWS - 500 });
    expect(search.kind).toBe("range");
    expect(search.all().map((row) => row.name)).toEqual(
      Array.from({ length: 21 }, (_, i) => nameOf(ROWS - 500 + (i + 1) * 10)),
    );
  });
});
