import type Sqlite from "better-sqlite3";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PetStatus } from "@petstore/contract";
import { sqliteRunner, type SqlRunner } from "../data/sql-work.js";
import { analysedPostgres, analysedSqlite, readingPostgresRunner, sqlitePlan } from "../test/analysed-databases.js";
import { TEST_PROVIDERS } from "../test/test-app.js";
import { nameKey } from "./name-key.js";
import { planNameSearch } from "./name-search.js";
import { laterWordKeys } from "./pet-words.js";
import { anyPetAbove, filteredPets, PET_BLOCK_SIZE, totalCount } from "./pet-listing.js";

/**
 * listPets by category (docs/decisions/050-category-blocks.md), on both providers: PostgreSQL reads its
 * ("categoryId", "id") index, SQLite the category's blocks in "PetBlock" and each block's ids of "Pet".
 * The answers must be the same; on SQLite the plan must read blocks and rowid ranges, never the table.
 */

const ROWS = 70_000;
/** A category of 14 pets far apart (one per 5,000 ids): its blocks are few, and most blocks hold none of it. */
const RARE = 777;
/** Ten pets moved here after they were made (the update's trigger): and one of them moved on again. */
const MOVED = 778;
const MOVED_IDS = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110];
const MOVED_ON = 110;
const categoryOf = (n: number) =>
  n === MOVED_ON ? 5 : MOVED_IDS.includes(n) ? MOVED : n % 5_000 === 0 ? RARE : 1 + (n % 100);
const NAME_SQL = `CASE WHEN n % 10 = 0 THEN 'Bella ' || n ELSE 'pet-' || n END`;
const KEY_SQL = `CASE WHEN n % 10 = 0 THEN 'bella ' || n ELSE 'pet ' || n END`;
const CATEGORY_SQL = `CASE WHEN n % 5000 = 0 THEN ${RARE} ELSE 1 + n % 100 END`;
const nameOf = (n: number) => (n % 10 === 0 ? `Bella ${n}` : `pet-${n}`);
const STATUS_SQL = `CASE WHEN n % 50 = 0 THEN 'available' WHEN n % 3 = 0 THEN NULL ELSE 'sold' END`;
const statusOf = (n: number): PetStatus | null => (n % 50 === 0 ? "available" : n % 3 === 0 ? null : "sold");
const MOVE_SQL = [
  `UPDATE "Pet" SET "categoryId" = ${MOVED} WHERE "id" BETWEEN ${MOVED_IDS[0]} AND ${MOVED_IDS.at(-1)}`,
  `UPDATE "Pet" SET "categoryId" = 5 WHERE "id" = ${MOVED_ON}`,
];

interface Filter {
  categoryId: number;
  status?: PetStatus;
  after?: number;
  before?: number;
  name?: string;
}

function expectedIds({ categoryId, status, after = 0, before = Infinity, name }: Filter): number[] {
  return Array.from({ length: ROWS }, (_, i) => i + 1).filter(
    (n) =>
      categoryOf(n) === categoryId &&
      n > after &&
      n < before &&
      (status === undefined || statusOf(n) === status) &&
      (name === undefined || ` ${nameKey(nameOf(n))}`.includes(` ${nameKey(name)}`)),
  );
}

/** The page listPets answers for `filter` (20 pets, read 21): ascending; with `before`, the 21 just below it. */
async function page(runner: SqlRunner, filter: Filter): Promise<number[]> {
  const name =
    filter.name === undefined
      ? undefined
      : ((await runner.read(() => planNameSearch(filter.name!, { take: 21, after: filter.after }))) ?? undefined);
  const pets = await runner.read(() => filteredPets({ ...filter, name, take: 21 }));
  return pets.map((pet) => pet.id);
}

function expectedPage(filter: Filter): number[] {
  const ids = expectedIds(filter);
  return filter.before !== undefined ? ids.slice(-21) : ids.slice(0, 21);
}

const FILTERS: Filter[] = [
  { categoryId: 5 },
  { categoryId: 5, after: 30_000 },
  { categoryId: 5, before: 20_000 },
  { categoryId: 5, before: 150 },
  { categoryId: 5, status: "available" },
  { categoryId: 5, status: "available", after: 12_345 },
  { categoryId: RARE },
  { categoryId: RARE, after: 25_000 },
  { categoryId: RARE, before: 25_000 },
  { categoryId: MOVED },
  { categoryId: 4242 },
  // A name shared by a tenth of the pets (a walk in id order, of the category's blocks on SQLite) and a rare one.
  { categoryId: 11, name: "bella" },
  { categoryId: 11, name: "bella", after: 40_000 },
  { categoryId: 11, name: "bella", before: 40_000 },
  { categoryId: 43, name: "pet 4242" },
  { categoryId: RARE, name: "bella" },
  // No pet of the category has the common name. A category in few blocks is read whole on SQLite (the
  // name's key ranges would read most of the store); one in every block (69 > CATEGORY_WALK_MAX_BLOCKS) from the ranges.
  { categoryId: RARE, name: "pet" },
  { categoryId: 12, name: "bella" },
  { categoryId: 12, name: "bella", before: 30_000 },
  // No pet of the category has the status: answered from the counts.
  { categoryId: 7, status: "available" },
];

/** What both providers must answer alike. */
function listingAnswers(runnerOf: () => SqlRunner): void {
  it.each(FILTERS)("a page by category: %j", async (filter) => {
    expect(await page(runnerOf(), filter)).toEqual(expectedPage(filter));
  });

  it("tells whether a pet of the category lies above an id", async () => {
    const runner = runnerOf();
    const last = expectedIds({ categoryId: RARE }).at(-1)!;
    expect(await runner.read(() => anyPetAbove({ categoryId: RARE }, last - 1))).toBe(true);
    expect(await runner.read(() => anyPetAbove({ categoryId: RARE }, last))).toBe(false);
    expect(await runner.read(() => anyPetAbove({ categoryId: MOVED }, MOVED_IDS.at(-2)! - 1))).toBe(true);
    expect(await runner.read(() => anyPetAbove({ categoryId: MOVED }, MOVED_IDS.at(-2)!))).toBe(false);
  });

  it("counts a name search within a category", async () => {
    const runner = runnerOf();
    for (const [categoryId, search] of [
      [11, "bella"],
      [RARE, "bella"],
      [43, "pet 4242"],
    ] as const) {
      const name = (await runner.read(() => planNameSearch(search, { take: 21 })))!;
      expect(await runner.read(() => totalCount({ categoryId, name }))).toBe(
        String(expectedIds({ categoryId, name: search }).length),
      );
    }
  });
}

describe.runIf(TEST_PROVIDERS.includes("postgresql"))("PostgreSQL: listPets by category", () => {
  let database: Awaited<ReturnType<typeof analysedPostgres>>;
  let client: pg.Client;
  let runner: SqlRunner;

  beforeAll(async () => {
    database = await analysedPostgres(
      `INSERT INTO "Pet" ("name", "nameKey", "categoryId", "status")
       SELECT ${NAME_SQL}, ${KEY_SQL}, ${CATEGORY_SQL}, ${STATUS_SQL} FROM generate_series(1, ${ROWS}) AS n`,
    );
    client = database.client;
    for (const statement of MOVE_SQL) await client.query(statement);
    await client.query(`ANALYZE "Pet"`);
    runner = readingPostgresRunner(client);
  }, 60_000);
  afterAll(() => database?.close());

  listingAnswers(() => runner);
});

describe("SQLite: listPets by category reads the category's blocks, never the table", () => {
  let database: Awaited<ReturnType<typeof analysedSqlite>>;
  let sqlite: Sqlite.Database;
  let runner: SqlRunner;
  /** Every statement the runner prepared (once per text, whichever test ran it first), to read its plan. */
  const prepared: string[] = [];

  beforeAll(async () => {
    database = await analysedSqlite((db) => {
      // As the API writes a pet on SQLite: its row (the triggers keep its counts and its block), then its later words.
      const insert = db.prepare(
        `INSERT INTO "Pet" ("id", "name", "nameKey", "categoryId", "status") VALUES (?, ?, ?, ?, ?)`,
      );
      const insertWord = db.prepare(`INSERT INTO "PetWord" ("key", "petId") VALUES (?, ?)`);
      for (let n = 1; n <= ROWS; n++) {
        const key = nameKey(nameOf(n));
        insert.run(n, nameOf(n), key, n % 5_000 === 0 ? RARE : 1 + (n % 100), statusOf(n));
        for (const wordKey of laterWordKeys(key)) insertWord.run(wordKey, n);
      }
      for (const statement of MOVE_SQL) db.exec(statement);
    });
    sqlite = database.sqlite;
    const prepare = sqlite.prepare.bind(sqlite);
    // Records what the runner prepares (it prepares each text once), for its plan.
    sqlite.prepare = ((text: string) => (prepared.push(text), prepare(text))) as typeof sqlite.prepare;
    runner = sqliteRunner(sqlite);
  }, 60_000);
  afterAll(() => database?.close());

  listingAnswers(() => runner);

  it("has no index on the pets' categoryId: the blocks serve the filter", () => {
    const indexes = sqlite
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Pet'`)
      .all() as Array<{ name: string }>;
    expect(indexes.map((index) => index.name)).not.toContain("Pet_categoryId_id_idx");
  });

  it("keeps a block row for every pet's category and block, through creates and changes", () => {
    const missing = sqlite
      .prepare(
        `SELECT count(*) AS n FROM "Pet" WHERE NOT EXISTS (SELECT 1 FROM "PetBlock" WHERE "category" = "Pet"."categoryId" AND "block" = "Pet"."id" / ${PET_BLOCK_SIZE})`,
      )
      .get() as { n: number };
    expect(missing.n).toBe(0);
    // One row per category and block it has a pet in: 100 categories in each of the 69 blocks, and a few more.
    const { n } = sqlite.prepare(`SELECT count(*) AS n FROM "PetBlock"`).get() as { n: number };
    expect(n).toBeLessThan(100 * Math.ceil(ROWS / PET_BLOCK_SIZE) + 30);
  });

  it("plans every listing by category as blocks, then rowid ranges of Pet, in order (no table scan, no sort)", async () => {
    for (const filter of FILTERS.filter((filter) => filter.name === undefined)) await page(runner, filter);
    await runner.read(() => anyPetAbove({ categoryId: RARE }, 1));
    // The listings without a name search (a walk has a test of its own).
    const listings = prepared.filter(
      (text) => text.includes(`"PetBlock" CROSS JOIN "Pet"`) && !text.includes(`"nameKey"`),
    );
    expect(listings.length).toBeGreaterThanOrEqual(3);
    for (const text of listings) {
      const plan = sqlitePlan(
        sqlite,
        text,
        Array.from({ length: text.split("?").length - 1 }, () => 1),
      );
      expect(plan, text).toMatch(/SEARCH PetBlock USING PRIMARY KEY \(category=\?/);
      // Each block's ids by rowid, or with a status that status's index over the block's ids.
      expect(plan, text).toMatch(
        /SEARCH Pet USING (INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)|INDEX Pet_status_id_idx \(status=\? AND id>\? AND id<\?\))/,
      );
      expect(plan, text).not.toContain("TEMP B-TREE");
      expect(plan, text).not.toMatch(/SCAN Pet\b/);
    }
  });

  it("walks a shared name's matches in a category through its blocks", async () => {
    await page(runner, { categoryId: 11, name: "bella" });
    const walk = prepared.find((text) => text.includes(`"PetBlock" CROSS JOIN "Pet"`) && text.includes("instr("));
    expect(walk).toBeDefined();
    const plan = sqlitePlan(
      sqlite,
      walk!,
      Array.from({ length: walk!.split("?").length - 1 }, () => 1),
    );
    // The walk (a co-routine named "Pet", whose few rows are sorted) reads blocks, then each block's ids.
    expect(plan).toMatch(/SEARCH PetBlock USING PRIMARY KEY \(category=\?/);
    expect(plan).toMatch(/SEARCH Pet USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
  });
});
