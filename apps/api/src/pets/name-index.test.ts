import type Sqlite from "better-sqlite3";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PetStatus } from "@petstore/contract";
import { postgresText, sqliteRunner, type SqlRunner, type SqlStatement } from "../data/sql-work.js";
import { analysedPostgres, analysedSqlite, readingPostgresRunner, sqlitePlan } from "../test/analysed-databases.js";
import { TEST_PROVIDERS } from "../test/test-app.js";
import { nameKey } from "./name-key.js";
import { laterWordKeys } from "./pet-words.js";
import { anyPetAbove, filteredPets, NAME_COUNT_CAP, totalCount } from "./pet-listing.js";
import {
  MIN_WALK_MATCHES,
  nameSearchPage,
  nameSearchPageStatement,
  planNameSearch,
  type NameSearchPlan,
} from "./name-search.js";

const ROWS = 100_000;
// A tenth of the pets share a first word ("bella"), spread over the ids; every other name is `pet-<n>`,
// whose second word is its number: "1" starts the second word of a ninth of the pets, "4242" of a few.
const NAME_SQL = `CASE WHEN n % 10 = 0 THEN 'Bella ' || n ELSE 'pet-' || n END`;
const KEY_SQL = `CASE WHEN n % 10 = 0 THEN 'bella ' || n ELSE 'pet ' || n END`;
const nameOf = (n: number) => (n % 10 === 0 ? `Bella ${n}` : `pet-${n}`);
const STATUS_SQL = `CASE WHEN n % 50 = 0 THEN 'available' WHEN n % 3 = 0 THEN NULL ELSE 'sold' END`;
const statusOf = (n: number) => (n % 50 === 0 ? "available" : n % 3 === 0 ? null : "sold");
/** Few matches: a first word's prefix, `pet 4242` (pet-4242, pet-42421..pet-42429), and a later word's, `4242`. */
const RARE = ["pet 4242", "4242"];
/** Many matches: a tenth of the pets' first word, and a ninth of the pets' second. */
const SHARED = ["bella", "1"];

/** The ids of the pets a search should find, in id order: consecutive words from a word's start. */
const expectedIds = (search: string, status: PetStatus | undefined, after = 0) =>
  Array.from({ length: ROWS }, (_, i) => i + 1)
    .filter((n) => n > after && (status === undefined || statusOf(n) === status))
    .filter((n) => ` ${nameKey(nameOf(n))}`.includes(` ${nameKey(search)}`));
const expectedNames = (search: string, status: PetStatus | undefined, after = 0) =>
  expectedIds(search, status, after).map(nameOf);

/** listPets' extensions (a category, the page below an id, the total) read a walk as the page does, falling back alike. */
async function expectExtensionsToAgree(runner: SqlRunner, search: string): Promise<void> {
  const plan = (await runner.read(() => planNameSearch(search, { take: 21 })))!;
  const page = await runner.read(() => filteredPets({ name: plan, categoryId: 1, take: 21 }));
  expect(page.map((pet) => pet.name)).toEqual(expectedNames(search, undefined).slice(0, 21));
  const below = await runner.read(() => filteredPets({ name: plan, status: "sold", take: 21, before: 5_000 }));
  expect(below.map((pet) => pet.id)).toEqual(
    expectedIds(search, "sold")
      .filter((id) => id < 5_000)
      .slice(-21),
  );
  const last = expectedIds(search, undefined).at(-1)!;
  expect(await runner.read(() => anyPetAbove({ name: plan }, last - 1))).toBe(true);
  expect(await runner.read(() => anyPetAbove({ name: plan }, last))).toBe(false);
  const total = expectedIds(search, "sold").length;
  expect(await runner.read(() => totalCount({ name: plan, status: "sold" }))).toBe(
    total > NAME_COUNT_CAP ? `${NAME_COUNT_CAP}+` : String(total),
  );
}

/** A plan and its first page's first statement (limit 20 + 1), as listPets runs them: a walk's, or the ranges'. */
async function planned(
  runner: SqlRunner,
  search: string,
  status?: PetStatus,
  after = 0,
): Promise<{ plan: NameSearchPlan; page: SqlStatement }> {
  const plan = (await runner.read(() => planNameSearch(search, { take: 21, after })))!;
  const query = { take: 21, status, after };
  return {
    plan,
    page:
      plan.kind === "walk"
        ? nameSearchPageStatement(plan, query, plan.needle, plan.cap)
        : nameSearchPageStatement(plan, query, plan.range),
  };
}

/**
 * Between rare and shared: `42` starts the second word of 1,111 names (pet-42, pet-420..pet-429, ...), enough
 * to try a walk, but only 11 of them among the first `cap` ids: the walk falls short and the ranges answer.
 */
const BETWEEN = "42";

describe.runIf(TEST_PROVIDERS.includes("postgresql"))(
  "PostgreSQL: a name search reads indexes, never a whole range",
  () => {
    let database: Awaited<ReturnType<typeof analysedPostgres>>;
    let client: pg.Client;
    let runner: SqlRunner;

    beforeAll(async () => {
      database = await analysedPostgres(
        `INSERT INTO "Pet" ("name", "nameKey", "categoryId", "status")
       SELECT ${NAME_SQL}, ${KEY_SQL}, 1, ${STATUS_SQL} FROM generate_series(1, ${ROWS}) AS n`,
      );
      client = database.client;
      await client.query(`ANALYZE "PetWord"`);
      runner = readingPostgresRunner(client);
    }, 60_000);
    afterAll(() => database?.close());

    interface PlanNode {
      "Node Type": string;
      "Index Name"?: string;
      "Relation Name"?: string;
      "Actual Rows": number;
      "Actual Loops": number;
      "Rows Removed by Filter"?: number;
      Plans?: PlanNode[];
    }
    const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
    const analyse = async (statement: SqlStatement) => {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${postgresText(statement)}`, [
        ...statement.values,
      ]);
      return nodes((rows[0]["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan);
    };
    const pageNames = async (statement: SqlStatement) =>
      (await client.query<{ name: string }>(postgresText(statement), [...statement.values])).rows.map(
        (row) => row.name,
      );

    it('keys both columns in code point order (COLLATE "C")', async () => {
      const { rows } = await client.query(
        `SELECT table_name, collation_name FROM information_schema.columns
       WHERE (table_name, column_name) IN (('Pet', 'nameKey'), ('PetWord', 'key')) ORDER BY table_name`,
      );
      expect(rows.map((row) => row.collation_name)).toEqual(["C", "C"]);
    });

    it("reads the highest id in the statement that counts (one round trip): the cap is sqrt(take x the ids left), at least MIN_WALK_MATCHES", async () => {
      expect((await planned(runner, "bella")).plan.cap).toBe(Math.ceil(Math.sqrt(21 * ROWS)));
      expect((await planned(runner, "bella", undefined, ROWS - 500)).plan.cap).toBe(
        Math.max(MIN_WALK_MATCHES, Math.ceil(Math.sqrt(21 * 500))),
      );
    });

    it("keeps a row in PetWord for each later word of every name, by trigger", async () => {
      const { rows } = await client.query(`SELECT count(*)::int AS "n" FROM "PetWord"`);
      expect(rows[0].n).toBe(ROWS);
    });

    for (const search of RARE) {
      it.each([undefined, "sold" as const])(
        `a rare search (${search}) reads the key ranges and no table scan (status %s)`,
        async (status) => {
          const { plan, page } = await planned(runner, search, status);
          expect(plan.kind).toBe("range");
          const all = await analyse(page);
          expect(all.some((node) => node["Node Type"] === "Seq Scan")).toBe(false);
          expect(all.some((node) => node["Index Name"] === "Pet_nameKey_id_idx")).toBe(true);
          expect(all.some((node) => node["Index Name"] === "PetWord_pkey")).toBe(true);
          expect(await pageNames(page)).toEqual(expectedNames(search, status).slice(0, 21));
        },
      );
    }

    for (const search of SHARED) {
      it.each([undefined, "sold" as const])(
        `a search a tenth of the pets match (${search}): the first page reads a few hundred rows in id order, no sort (status %s)`,
        async (status) => {
          const { plan, page } = await planned(runner, search, status);
          expect(plan.kind).toBe("walk");
          const all = await analyse(page);
          expect(all.some((node) => node["Node Type"] === "Sort")).toBe(false);
          expect(all.some((node) => node["Node Type"] === "Seq Scan")).toBe(false);
          const read = all
            .filter((node) => node["Node Type"].includes("Index"))
            .reduce((sum, node) => sum + node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0), 0);
          expect(read).toBeLessThan(1_000);
          expect(await pageNames(page)).toEqual(expectedNames(search, status).slice(0, 21));
        },
      );
    }

    it.each([undefined, "sold" as const])(
      `a search between (${BETWEEN}): the walk stops at its cap, short of a page, and the ranges answer (status %s)`,
      async (status) => {
        const { plan, page } = await planned(runner, BETWEEN, status);
        expect(plan.kind).toBe("walk");
        const walked = await analyse(page);
        expect(walked.some((node) => node["Node Type"] === "Seq Scan")).toBe(false);
        expect((await pageNames(page)).length).toBeLessThan(21);
        const pets = await runner.read(() => nameSearchPage({ name: BETWEEN, take: 21, status }));
        expect(pets.map((pet) => pet.name)).toEqual(expectedNames(BETWEEN, status).slice(0, 21));
      },
    );

    it.each([...SHARED, BETWEEN, ...RARE])(
      "listPets' extensions read a search of %s as the page does",
      async (search) => {
        await expectExtensionsToAgree(runner, search);
      },
    );
  },
);

describe("SQLite: a name search reads indexes, never a whole range", () => {
  let database: Awaited<ReturnType<typeof analysedSqlite>>;
  let sqlite: Sqlite.Database;
  let runner: SqlRunner;

  beforeAll(async () => {
    database = await analysedSqlite((db) => {
      // As the API writes a pet on SQLite: its row, then its later words' keys (pet-words.ts).
      const insert = db.prepare(
        `INSERT INTO "Pet" ("id", "name", "nameKey", "categoryId", "status") VALUES (?, ?, ?, 1, ?)`,
      );
      const insertWord = db.prepare(`INSERT INTO "PetWord" ("key", "petId") VALUES (?, ?)`);
      for (let n = 1; n <= ROWS; n++) {
        const key = nameKey(nameOf(n));
        insert.run(n, nameOf(n), key, statusOf(n));
        for (const wordKey of laterWordKeys(key)) insertWord.run(wordKey, n);
      }
    });
    sqlite = database.sqlite;
    runner = sqliteRunner(sqlite);
  }, 60_000);
  afterAll(() => database?.close());

  const explain = (statement: SqlStatement) => sqlitePlan(sqlite, statement.strings.join("?"), [...statement.values]);
  const pageNames = (statement: SqlStatement) =>
    (sqlite.prepare(statement.strings.join("?")).all(...statement.values) as Array<{ name: string }>).map(
      (row) => row.name,
    );

  it("holds a row in PetWord for each later word of every name", () => {
    expect(sqlite.prepare(`SELECT count(*) AS "n" FROM "PetWord"`).get()).toEqual({ n: ROWS });
  });

  for (const search of RARE) {
    it.each([undefined, "sold" as const])(
      `a rare search (${search}) reads the two key ranges, sorted (status %s)`,
      async (status) => {
        const { plan, page } = await planned(runner, search, status);
        expect(plan.kind).toBe("range");
        const steps = explain(page);
        expect(steps).toMatch(/SEARCH Pet USING COVERING INDEX Pet_nameKey_id_idx \(nameKey>\? AND nameKey<\?\)/);
        expect(steps).toMatch(/SEARCH PetWord USING PRIMARY KEY \(key>\? AND key<\?\)/);
        expect(steps).not.toMatch(/^SCAN Pet$/m);
        expect(pageNames(page)).toEqual(expectedNames(search, status).slice(0, 21));
      },
    );
  }

  for (const search of SHARED) {
    it.each([undefined, "sold" as const])(
      `a search a tenth of the pets match (${search}) walks the id order and stops at the page, no sort (status %s)`,
      async (status) => {
        const { plan, page } = await planned(runner, search, status);
        expect(plan.kind).toBe("walk");
        const steps = explain(page);
        expect(steps).not.toContain("Pet_nameKey_id_idx");
        expect(steps).not.toContain("TEMP B-TREE");
        if (status) expect(steps).toMatch(/SEARCH Pet USING INDEX Pet_status_id_idx \(status=\? AND id>\?\)/);
        expect(pageNames(page)).toEqual(expectedNames(search, status).slice(0, 21));
      },
    );
  }

  it.each([undefined, "sold" as const])(
    `a search between (${BETWEEN}): the walk stops at its cap, short of a page, and the ranges answer (status %s)`,
    async (status) => {
      const { plan, page } = await planned(runner, BETWEEN, status);
      expect(plan.kind).toBe("walk");
      expect(explain(page)).not.toContain("TEMP B-TREE");
      expect(pageNames(page).length).toBeLessThan(21);
      const pets = await runner.read(() => nameSearchPage({ name: BETWEEN, take: 21, status }));
      expect(pets.map((pet) => pet.name)).toEqual(expectedNames(BETWEEN, status).slice(0, 21));
    },
  );

  it.each([...SHARED, BETWEEN, ...RARE])(
    "listPets' extensions read a search of %s as the page does",
    async (search) => {
      await expectExtensionsToAgree(runner, search);
    },
  );

  it("the count that chooses reads the covering indexes only, and at most MIN_WALK_MATCHES of each", async () => {
    const { plan } = await planned(runner, "bella");
    expect(plan.cap).toBe(Math.ceil(Math.sqrt(21 * ROWS)));
    expect(plan.count.values.filter((value) => value === MIN_WALK_MATCHES)).toHaveLength(2);
    const steps = explain(plan.count);
    expect(steps).toMatch(/SEARCH Pet USING COVERING INDEX Pet_nameKey_id_idx \(nameKey>\? AND nameKey<\?\)/);
    expect(steps).toMatch(/SEARCH PetWord USING PRIMARY KEY \(key>\? AND key<\?\)/);
  });

  it("past the last shared match, what is left of the range is small again: a range", async () => {
    const { plan, page } = await planned(runner, "bella", undefined, ROWS - 500);
    expect(plan.kind).toBe("range");
    expect(pageNames(page)).toEqual(Array.from({ length: 21 }, (_, i) => nameOf(ROWS - 500 + (i + 1) * 10)));
  });
});
