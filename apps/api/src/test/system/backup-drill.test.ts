import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { API_ROOT } from "../../base/env.js";
import { sqliteFilePath } from "../../base/database-url.js";
import { inspectSqlite } from "../../maintenance/sqlite-backup.js";
import { openDatabase } from "../../database.js";
import { firstRow, sql } from "../../data/sql-work.js";
import { insertStaleHeartbeat } from "../upkeep-rows.js";
import Sqlite from "better-sqlite3";
import pg from "pg";
import { listAllPets, startApiProcess, waitUntilReady, type ApiProcess } from "../api-process.js";
import { createDatabase, databaseUrl, dropDatabase } from "../postgres-admin.js";
import { bearer, freshDatabase, TEST_KEY, TEST_PROVIDERS } from "../test-app.js";

const run = promisify(execFile);
const COMMAND = path.join(API_ROOT, "dist", "operations-command.js");
const operations = (databaseUrl: string, ...args: string[]) =>
  run(process.execPath, [COMMAND, ...args], {
    cwd: API_ROOT,
    env: { PATH: process.env["PATH"] ?? "", DATABASE_URL: databaseUrl },
  });

/**
 * The restore drill (docs/operations.md): pets written under load, a backup taken mid-way by the operator's
 * command while the API serves, restored into a new database; every pet acknowledged before the backup
 * began is there, the file passes its integrity check, and the API starts on it and serves them.
 */
describe.each(TEST_PROVIDERS)("the restore drill on %s (built)", (provider) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function apiOn(url: string): Promise<ApiProcess> {
    const api = await startApiProcess({ API_KEYS: TEST_KEY, DATABASE_URL: url });
    cleanups.push(() => api.stop("SIGKILL"));
    await waitUntilReady(api);
    return api;
  }

  it("every pet acknowledged before the backup began is in the restored database, and the API serves them", async () => {
    const source = await freshDatabase(provider);
    cleanups.push(source.remove);
    const dir = mkdtempSync(path.join(tmpdir(), "petstore-drill-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const api = await apiOn(source.url);

    // Eight writers create pets back to back until told to stop; each acknowledged pet is noted with its time.
    const acknowledged: Array<{ id: number; name: string; at: number }> = [];
    let writing = true;
    const writers = Array.from({ length: 8 }, async (_, writer) => {
      for (let i = 0; writing; i++) {
        const name = `w${writer}-${i}`;
        const response = await fetch(`${api.url}/v1/pets`, {
          method: "POST",
          headers: { Authorization: bearer(), "Content-Type": "application/json" },
          body: JSON.stringify({ name, categoryId: 1 }),
        });
        if (response.status === 201)
          acknowledged.push({ id: ((await response.json()) as { id: number }).id, name, at: Date.now() });
      }
    });
    // Mid-way: once a hundred are in (seconds on a loaded host).
    await expect.poll(() => acknowledged.length, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(100);
    const backupBegan = Date.now();
    const before = acknowledged.filter((pet) => pet.at < backupBegan);
    const { stdout } = await operations(source.url, "backup", "--to", dir);
    const writtenDuring = acknowledged.length - before.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    writing = false;
    await Promise.all(writers);

    const file = /^backup: (\S+), [0-9.]+ MB, (\d+) pets, [0-9.]+ s, verified by a restore$/m.exec(stdout);
    expect(file, stdout).not.toBeNull();
    expect(Number(file![2])).toBeGreaterThanOrEqual(before.length);
    expect(writtenDuring).toBeGreaterThan(0);

    let target: string;
    if (provider === "sqlite") {
      target = `file:${path.join(dir, "restored.db")}`;
    } else {
      const name = `petstore_drill_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
      await createDatabase(name);
      cleanups.push(() => dropDatabase(name));
      target = databaseUrl(name);
    }
    const restored = await operations(target, "restore", file![1]!);
    expect(restored.stdout).toMatch(/^restored .* into /);
    if (provider === "sqlite") expect(inspectSqlite(sqliteFilePath(target)).integrity).toBe("ok");

    const restoredApi = await apiOn(target);
    const served = new Map(
      (await listAllPets(restoredApi, { Authorization: bearer() })).map((pet) => [pet.id, pet.name]),
    );
    expect(before.filter((pet) => served.get(pet.id) !== pet.name)).toEqual([]);
    // Nothing appears that was never acknowledged as it was.
    const everyAcknowledged = new Map(acknowledged.map((pet) => [pet.id, pet.name]));
    expect([...served].filter(([id, name]) => everyAcknowledged.get(id) !== name)).toEqual([]);
    // SQLite commits in id order, so its copy of one moment has no gap (PostgreSQL's may: a lower id still in flight).
    if (provider === "sqlite") expect([...served.keys()]).toEqual(Array.from({ length: served.size }, (_, i) => i + 1));
    // Three API processes, a backup and a restore: 63 s once on PostgreSQL beside the other suites (a failure detector).
  }, 120_000);

  it("the retention command purges now and prints what it purged; a second run finds nothing", async () => {
    const database = await freshDatabase(provider);
    cleanups.push(database.remove);
    await insertStaleHeartbeat(database.url);
    expect((await operations(database.url, "retention")).stdout).toBe("retention: purged heartbeats 1\n");
    expect((await operations(database.url, "retention")).stdout).toBe("retention: purged nothing\n");
    const json = JSON.parse((await operations(database.url, "retention", "--json")).stdout) as Record<string, number>;
    expect(Object.values(json).every((count) => count === 0)).toBe(true);
  });

  it("a backup of an older version restores, and the API migrates it on start", async () => {
    // The store as the previous version left it: without the newest migration (store_at_a_glance).
    const source = await freshDatabase(provider);
    cleanups.push(source.remove);
    const api = await apiOn(source.url);
    for (const name of ["Old Rex", "Old Tom"]) {
      expect(
        (
          await fetch(`${api.url}/v1/pets`, {
            method: "POST",
            headers: { Authorization: bearer(), "Content-Type": "application/json" },
            body: JSON.stringify({ name, categoryId: 1 }),
          })
        ).status,
      ).toBe(201);
    }
    await api.stop("SIGTERM");
    const latest = provider === "sqlite" ? "0015_category_blocks" : "0014_store_at_a_glance";
    // What the migration added. SQLite: the category blocks (filled from the pets) in place of the category
    // index. PostgreSQL: categories, the pets' counts with their triggers, the category index (its
    // wider CHECKs on the activity log hold the older rows, and the migration makes them again), and the
    // counts' deltas of 0017_counts_as_deltas.
    const undo =
      provider === "sqlite"
        ? `DROP TRIGGER "Pet_blocked_insert"; DROP TRIGGER "Pet_blocked_update"; DROP TABLE "PetBlock";
           CREATE INDEX "Pet_categoryId_id_idx" ON "Pet"("categoryId", "id");`
        : `DROP TRIGGER "Pet_counted_insert" ON "Pet"; DROP TRIGGER "Pet_counted_delete" ON "Pet"; DROP TRIGGER "Pet_counted_update" ON "Pet";
           DROP TRIGGER "Pet_counted_truncate" ON "Pet"; DROP FUNCTION "Pet_counted_insert"(); DROP FUNCTION "Pet_counted_delete"();
           DROP FUNCTION "Pet_counted_update"(); DROP FUNCTION "PetCount_reset"(); DROP INDEX "Pet_categoryId_id_idx"; DROP TABLE "PetCount"; DROP TABLE "Category";
           DROP TABLE "PetCountDelta";`;
    if (provider === "sqlite") {
      const db = new Sqlite(sqliteFilePath(source.url));
      db.exec(undo);
      db.prepare("DELETE FROM _prisma_migrations WHERE migration_name = ?").run(latest);
      db.close();
    } else {
      const client = new pg.Client({ connectionString: source.url });
      await client.connect();
      await client.query(undo);
      // With the counts' deltas that came after (0017), so the two apply again in order.
      await client.query("DELETE FROM _prisma_migrations WHERE migration_name = ANY($1)", [
        [latest, "0017_counts_as_deltas"],
      ]);
      await client.end();
    }
    const dir = mkdtempSync(path.join(tmpdir(), "petstore-older-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const file = /^backup: (\S+),/.exec((await operations(source.url, "backup", "--to", dir)).stdout)![1]!;

    let target: string;
    if (provider === "sqlite") {
      target = `file:${path.join(dir, "restored.db")}`;
    } else {
      const name = `petstore_older_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
      await createDatabase(name);
      cleanups.push(() => dropDatabase(name));
      target = databaseUrl(name);
    }
    await operations(target, "restore", file);
    const restoredApi = await apiOn(target);
    expect((await listAllPets(restoredApi, { Authorization: bearer() })).map((pet) => pet.name)).toEqual([
      "Old Rex",
      "Old Tom",
    ]);
    // The migration's own fill: the category filter finds the pets the older version kept.
    const byCategory = await fetch(`${restoredApi.url}/v1/pets?categoryId=1`, { headers: { Authorization: bearer() } });
    expect(((await byCategory.json()) as Array<{ name: string }>).map((pet) => pet.name)).toEqual([
      "Old Rex",
      "Old Tom",
    ]);
    // Migrated on start: the newest migration is applied again, and the API's heartbeat is written.
    const migrated = await openDatabase({ url: target, poolSize: 1 });
    try {
      const rows = await migrated.sql.read(function* () {
        return {
          applied: yield* firstRow<{ n: unknown }>(
            sql`SELECT count(*) AS "n" FROM "_prisma_migrations" WHERE "migration_name" = ${latest}`,
          ),
          beats: yield* firstRow<{ n: unknown }>(sql`SELECT count(*) AS "n" FROM "ApiHeartbeat"`),
          // The counts start from the pets the older version kept.
          counted: yield* firstRow<{ n: unknown }>(sql`SELECT sum("count") AS "n" FROM "PetCount"`),
        };
      });
      expect(Number(rows.applied!.n)).toBe(1);
      expect(Number(rows.beats!.n)).toBe(1);
      expect(Number(rows.counted!.n)).toBe(2);
    } finally {
      await migrated.close();
    }
    // Two API starts, a backup with its verification and a restore: a loaded CI host takes longer than the default.
  }, 120_000);
});
