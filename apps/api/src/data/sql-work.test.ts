import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../database.js";
import { freshDatabase, TEST_PROVIDERS, type TestDatabase } from "../test/test-app.js";
import {
  execute,
  firstRow,
  forUpdate,
  joinSql,
  postgresText,
  raw,
  rows,
  sql,
  toBoolean,
  toDate,
  toNumber,
  type SqlWork,
} from "./sql-work.js";

describe("sql", () => {
  it("keeps parameters apart from the text, splices nested statements and constant text", () => {
    const where = joinSql([sql`"a" = ${1}`, sql`"b" = ${"x"}`], " AND ");
    const statement = sql`SELECT ${raw('"a", "b"')} FROM "T" WHERE ${where} LIMIT ${10}`;
    expect(postgresText(statement)).toBe(`SELECT "a", "b" FROM "T" WHERE "a" = $1 AND "b" = $2 LIMIT $3`);
    expect(statement.strings.join("?")).toBe(`SELECT "a", "b" FROM "T" WHERE "a" = ? AND "b" = ? LIMIT ?`);
    expect(statement.values).toEqual([1, "x", 10]);
  });
});

describe.each(TEST_PROVIDERS)("a unit of work on %s", (provider) => {
  let db: TestDatabase;
  let database: Database;
  beforeEach(async () => {
    db = await freshDatabase(provider);
    database = await openDatabase({ url: db.url, poolSize: 2 });
  });
  afterEach(async () => {
    await database.close();
    await db.remove();
  });

  const at = new Date("2026-11-28T07:00:00.123Z");
  function* insertChallenge(digest: string): SqlWork<number> {
    return yield* execute(sql`
      INSERT INTO "PasskeyChallenge" ("digest", "purpose", "staffId", "invitationDigest", "createdAt", "expiresAt")
      VALUES (${digest}, ${"sign-in"}, ${null}, ${null}, ${at}, ${new Date(at.getTime() + 60_000)})`);
  }

  it("writes and reads back dates, integers and booleans alike on both providers", async () => {
    expect(await database.sql.transaction(() => insertChallenge("d1"))).toBe(1);
    const row = await database.sql.read(function* () {
      return yield* firstRow<{ digest: string; createdAt: unknown; n: unknown; yes: unknown }>(
        sql`SELECT "digest", "createdAt", ${7} + 1 AS "n", ("createdAt" < ${new Date(at.getTime() + 1)}) AS "yes" FROM "PasskeyChallenge" WHERE "createdAt" <= ${at}`,
      );
    });
    expect(row?.digest).toBe("d1");
    expect(toDate(row?.createdAt).toISOString()).toBe(at.toISOString());
    expect(toNumber(row?.n)).toBe(8);
    expect(toBoolean(row?.yes)).toBe(true);
  });

  it("rolls the whole unit back when it throws, and rejects", async () => {
    await expect(
      database.sql.transaction(function* () {
        yield* insertChallenge("d2");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    const found = await database.sql.read(() => rows(sql`SELECT "digest" FROM "PasskeyChallenge"`));
    expect(found).toEqual([]);
  });

  it("locks what it reads for update on PostgreSQL, and reads it plainly on SQLite", async () => {
    await database.sql.transaction(() => insertChallenge("d3"));
    const found = await database.sql.transaction(function* () {
      return yield* rows<{ digest: string }>(
        sql`SELECT "digest" FROM "PasskeyChallenge" WHERE "digest" = ${"d3"}${yield* forUpdate()}`,
      );
    });
    expect(found).toEqual([{ digest: "d3" }]);
  });

  it("throws a failed statement into the work, which may see it", async () => {
    await database.sql.transaction(() => insertChallenge("d4"));
    const seen = await database.sql.read(function* () {
      try {
        yield* rows(sql`SELECT "nope" FROM "PasskeyChallenge"`);
        return "no error";
      } catch {
        return "caught";
      }
    });
    expect(seen).toBe("caught");
  });
});
