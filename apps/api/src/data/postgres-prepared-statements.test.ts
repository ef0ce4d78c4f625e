import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createPreparedQuery, MAX_NAMED_STATEMENTS } from "./postgres-prepared-statements.js";
import { POSTGRES_ADMIN_URL } from "../test/postgres-admin.js";
import { TEST_PROVIDERS } from "../test/test-app.js";

describe.runIf(TEST_PROVIDERS.includes("postgresql"))("PostgreSQL prepared statements", () => {
  const pools: pg.Pool[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end()));
  });
  /** One connection, so what it has prepared can be read back (pg_prepared_statements is per session). */
  function onePool() {
    const pool = new pg.Pool({ connectionString: POSTGRES_ADMIN_URL, max: 1 });
    pools.push(pool);
    return pool;
  }
  const preparedNames = async (pool: pg.Pool) =>
    (await pool.query<{ name: string }>("SELECT name FROM pg_prepared_statements ORDER BY name")).rows.map(
      (row) => row.name,
    );

  it("prepares a statement once per connection under a name of its text, and runs it with each call's values", async () => {
    const pool = onePool();
    const query = createPreparedQuery(pool);
    const statement = (n: number) => ({ text: "SELECT $1::int + 1 AS next", values: [n] });
    expect(await query<{ next: number }>(statement(1))).toEqual([{ next: 2 }]);
    expect(await query<{ next: number }>(statement(41))).toEqual([{ next: 42 }]);
    const names = await preparedNames(pool);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^petstore_[0-9a-f]{24}$/);
    // Another text is another statement, under another name.
    expect(await query<{ twice: number }>({ text: "SELECT $1::int * 2 AS twice", values: [4] })).toEqual([
      { twice: 8 },
    ]);
    expect(await preparedNames(pool)).toHaveLength(2);
  });

  it("two pools (replicas) name one text alike, and a prepared statement survives a change of the table it writes", async () => {
    const pool = onePool();
    const query = createPreparedQuery(pool);
    await pool.query("CREATE TEMPORARY TABLE things (id serial PRIMARY KEY, name text NOT NULL)");
    const insert = (name: string) => ({
      text: 'INSERT INTO things (name) VALUES ($1) RETURNING "id", "name"',
      values: [name],
    });
    expect(await query(insert("one"))).toEqual([{ id: 1, name: "one" }]);
    await pool.query("ALTER TABLE things ADD COLUMN note text");
    expect(await query(insert("two"))).toEqual([{ id: 2, name: "two" }]);

    const other = onePool();
    await createPreparedQuery(other)({ text: "SELECT 1 AS one", values: [] });
    await query({ text: "SELECT 1 AS one", values: [] });
    const [mine, theirs] = await Promise.all([preparedNames(pool), preparedNames(other)]);
    expect(theirs).toHaveLength(1);
    expect(mine).toContain(theirs[0]);
  });

  it(`names at most ${MAX_NAMED_STATEMENTS} texts, then runs the rest unnamed (a text with a value in it would fill every connection)`, async () => {
    const pool = onePool();
    const query = createPreparedQuery(pool);
    for (let n = 0; n < MAX_NAMED_STATEMENTS + 10; n += 1) {
      expect(await query<{ n: number }>({ text: `SELECT ${n}::int AS n`, values: [] })).toEqual([{ n }]);
    }
    expect(await preparedNames(pool)).toHaveLength(MAX_NAMED_STATEMENTS);
  });

  it("a failing statement rejects with PostgreSQL's error (its SQLSTATE, for the outage mapping) and the connection goes on", async () => {
    const pool = onePool();
    const query = createPreparedQuery(pool);
    await expect(query({ text: "SELECT 1 / $1::int AS q", values: [0] })).rejects.toMatchObject({ code: "22012" });
    expect(await query<{ q: number }>({ text: "SELECT 1 / $1::int AS q", values: [1] })).toEqual([{ q: 1 }]);
  });
});
