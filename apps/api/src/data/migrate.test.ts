import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Sqlite from "better-sqlite3";
import pg from "pg";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sqliteFilePath } from "../base/database-url.js";
import { MIGRATIONS_FOLDER, migrateDatabase, pendingMigrations } from "./migrate.js";
import { createDatabase, databaseUrl, dropDatabase } from "../test/postgres-admin.js";
import { freshDatabase, TEST_PROVIDERS, type TestDatabase } from "../test/test-app.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function currentDatabase(provider: (typeof TEST_PROVIDERS)[number]): Promise<TestDatabase> {
  const db = await freshDatabase(provider); // a copy of the run's migrated template
  cleanups.push(db.remove);
  return db;
}

/** A database with no tables at all. */
async function emptyDatabase(provider: (typeof TEST_PROVIDERS)[number]): Promise<string> {
  if (provider === "postgresql") {
    const name = `petstore_test_empty_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    await createDatabase(name);
    cleanups.push(() => dropDatabase(name));
    return databaseUrl(name);
  }
  const folder = mkdtempSync(path.join(tmpdir(), "petstore-migrate-"));
  cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
  return `file:${path.join(folder, "fresh.db")}`;
}

/** Runs one statement on the database `url` names, over the runtime driver. */
async function execute(url: string, sql: string): Promise<void> {
  if (url.startsWith("file:")) {
    const connection = new Sqlite(sqliteFilePath(url));
    connection.exec(sql);
    connection.close();
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(sql);
  await client.end();
}

describe.each(TEST_PROVIDERS)("migrateDatabase on %s", (provider) => {
  it("a current database: the Prisma CLI is not started", async () => {
    const { url } = await currentDatabase(provider);
    const deploy = vi.fn(async () => "deployed");
    expect(await migrateDatabase(url, { deploy })).toBe("No pending migrations: the database is current.");
    expect(deploy).not.toHaveBeenCalled();
  });

  it("a database without the migrations table: the CLI runs", async () => {
    const url = await emptyDatabase(provider);
    // Every committed migration is pending, in order.
    const committed = readdirSync(MIGRATIONS_FOLDER[provider], { withFileTypes: true }).filter((entry) =>
      entry.isDirectory(),
    );
    expect(committed.length).toBeGreaterThanOrEqual(2);
    expect(await pendingMigrations(url)).toEqual(committed.map((entry) => entry.name).sort());
    const deploy = vi.fn(async () => "deployed");
    expect(await migrateDatabase(url, { deploy })).toBe("deployed");
    expect(deploy).toHaveBeenCalledWith(url);
  });

  it.each([
    ["was edited after it was applied", "UPDATE _prisma_migrations SET checksum = 'edited'"],
    ["failed", "UPDATE _prisma_migrations SET finished_at = NULL"],
    ["was rolled back", "UPDATE _prisma_migrations SET rolled_back_at = started_at"],
    ["is missing", "DELETE FROM _prisma_migrations"],
  ])("a migration that %s is pending: the CLI runs (and decides)", async (_case, sql) => {
    const { url } = await currentDatabase(provider);
    await execute(url, sql);
    const deploy = vi.fn(async () => "deployed");
    expect(await migrateDatabase(url, { deploy })).toBe("deployed");
    expect(deploy).toHaveBeenCalledOnce();
  });
});

it("a new SQLite file is migrated by the CLI, and is current afterwards", async () => {
  const url = await emptyDatabase("sqlite");
  expect(await migrateDatabase(url)).toMatch(/applied/i);
  expect(await pendingMigrations(url)).toEqual([]);
});
