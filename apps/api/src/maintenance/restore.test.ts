import { createHash, randomUUID } from "node:crypto";
import {
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
  closeSync,
  statSync,
  copyFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Sqlite from "better-sqlite3";
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqliteFilePath } from "../base/database-url.js";
import { openDatabase } from "../database.js";
import { committedMigrationNames } from "../data/migrate.js";
import { execute, raw, sql } from "../data/sql-work.js";
import { createDatabase, databaseUrl, dropDatabase, withAdminClient } from "../test/postgres-admin.js";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import { BackupRefusal, backupsIn, sidecarOf, writeSidecar } from "./backup-file.js";
import { takeBackup } from "./backup.js";
import { dumpPostgres, postgresTarget, restorePostgres } from "./postgres-backup.js";
import { restoreBackup } from "./restore.js";
import { inspectSqlite } from "./sqlite-backup.js";

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe.each(TEST_PROVIDERS)("backup and restore on %s", (provider) => {
  let t: TestApp;
  let dir: string;
  const cleanups: Array<() => Promise<void>> = [];
  beforeEach(async () => {
    t = await createTestApp({}, provider);
    dir = mkdtempSync(path.join(tmpdir(), "petstore-backups-"));
    for (const name of ["Rex", "Tom", "Kiki"]) {
      await request(t.app).post("/v1/pets").set("Authorization", bearer()).send({ name, categoryId: 1 }).expect(201);
    }
  });
  afterEach(async () => {
    await t.close();
    for (const cleanup of cleanups.splice(0)) await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A target that does not exist yet (SQLite: a file path; PostgreSQL: an empty database). */
  async function newTarget(): Promise<string> {
    if (provider === "sqlite") return `file:${path.join(dir, `restored-${randomUUID()}.db`)}`;
    const name = `petstore_restore_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    await createDatabase(name);
    cleanups.push(() => dropDatabase(name));
    return databaseUrl(name);
  }

  async function petNames(url: string): Promise<string[]> {
    const database = await openDatabase({ url, poolSize: 1 });
    try {
      return (await database.pets.list({ take: 100 })).map((pet) => pet.name);
    } finally {
      await database.close();
    }
  }

  /** What would show a change to the target: its file's digest, or its pets. */
  const fingerprint = async (url: string) =>
    provider === "sqlite"
      ? existsSync(sqliteFilePath(url))
        ? sha256(sqliteFilePath(url))
        : "absent"
      : JSON.stringify(await petNames(url).catch(() => "no pets table"));

  it("a backup is verified, named by its time, with a sha256sum sidecar; restored into a new database it holds every pet", async () => {
    const report = await takeBackup({ databaseUrl: t.config.databaseUrl, dir });
    expect(report).toMatchObject({ pets: 3, verified: true });
    expect(path.basename(report.file)).toMatch(
      new RegExp(
        `^petstore-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z\\.${provider === "sqlite" ? "sqlite" : "pgdump"}$`,
      ),
    );
    expect(report.bytes).toBe(statSync(report.file).size);
    expect(readFileSync(sidecarOf(report.file), "utf8")).toBe(
      `${sha256(report.file)}  ${path.basename(report.file)}\n`,
    );
    expect(existsSync(`${report.file}.partial`)).toBe(false);

    const target = await newTarget();
    const restored = await restoreBackup({ file: report.file, databaseUrl: target });
    expect(restored.migrations).toBeGreaterThan(10);
    if (provider === "sqlite") {
      expect(restored.pets).toBe(3);
      expect(inspectSqlite(sqliteFilePath(target)).integrity).toBe("ok");
      expect(existsSync(`${sqliteFilePath(target)}-wal`)).toBe(false);
    }
    expect(await petNames(target)).toEqual(["Rex", "Tom", "Kiki"]);
  });

  it("refuses a file whose SHA-256 is not its sidecar's, or without one, and leaves the target as it was", async () => {
    const { file } = await takeBackup({ databaseUrl: t.config.databaseUrl, dir });
    const target = await newTarget();
    const before = await fingerprint(target);
    const fd = openSync(file, "r+");
    writeSync(fd, Buffer.from([0x42]), 0, 1, Math.floor(statSync(file).size / 2));
    closeSync(fd);
    await expect(restoreBackup({ file, databaseUrl: target })).rejects.toThrow(/does not match its SHA-256 sidecar/);
    rmSync(sidecarOf(file));
    await expect(restoreBackup({ file, databaseUrl: target })).rejects.toThrow(/\.sha256 is missing/);
    expect(await fingerprint(target)).toBe(before);
  });

  it("refuses a damaged backup whose sidecar was made after the damage (its integrity check fails)", async () => {
    const { file } = await takeBackup({ databaseUrl: t.config.databaseUrl, dir });
    const fd = openSync(file, "r+");
    // SQLite: garbage over the second page onwards (the tables' b-trees); pg_dump: over the archive's header.
    writeSync(
      fd,
      Buffer.alloc(provider === "sqlite" ? 8192 : 64, 0x5a),
      0,
      provider === "sqlite" ? 8192 : 64,
      provider === "sqlite" ? 4096 : 0,
    );
    closeSync(fd);
    await writeSidecar(file);
    const target = await newTarget();
    const before = await fingerprint(target);
    await expect(restoreBackup({ file, databaseUrl: target })).rejects.toThrow(
      provider === "sqlite" ? /failed its integrity check/ : /not a readable pg_dump archive/,
    );
    expect(await fingerprint(target)).toBe(before);
    if (provider === "sqlite") expect(existsSync(`${sqliteFilePath(target)}.restoring-${process.pid}`)).toBe(false);
  });

  it("refuses a backup whose migrations are newer than the code's, naming both", async () => {
    const { file } = await takeBackup({ databaseUrl: t.config.databaseUrl, dir });
    const newer = path.join(dir, path.basename(file).replace(/\d{3}Z\./, "999Z."));
    if (provider === "sqlite") {
      copyFileSync(file, newer);
      const db = new Sqlite(newer);
      db.prepare(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ('x', 'x', '9999_from_the_future', 0, 0, 1)`,
      ).run();
      db.close();
    } else {
      // Restored somewhere, moved on by a "newer version", dumped again.
      const scratch = await newTarget();
      await restorePostgres(file, postgresTarget(scratch), { clean: false });
      const database = await openDatabase({ url: scratch, poolSize: 1 });
      await database.sql.transaction(() =>
        execute(
          sql`INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "finished_at", "applied_steps_count") VALUES ('x', 'x', '9999_from_the_future', now(), now(), 1)`,
        ),
      );
      await database.close();
      await dumpPostgres(postgresTarget(scratch), newer);
    }
    await writeSidecar(newer);
    const target = await newTarget();
    const before = await fingerprint(target);
    const newest = committedMigrationNames(provider).at(-1)!;
    await expect(restoreBackup({ file: newer, databaseUrl: target })).rejects.toThrow(
      `migrations are newer than this code's: it has 9999_from_the_future; the code's newest is ${newest}`,
    );
    expect(await fingerprint(target)).toBe(before);
  });

  it("refuses a target an API serves (its heartbeat, naming the host) unless --force", async () => {
    const { file } = await takeBackup({ databaseUrl: t.config.databaseUrl, dir });
    const target = await newTarget();
    await restoreBackup({ file, databaseUrl: target });
    const database = await openDatabase({ url: target, poolSize: 1 });
    const beat = new Date();
    await database.sql.transaction(() =>
      execute(
        sql`INSERT INTO "ApiHeartbeat" ("id", "host", "pid", "startedAt", "beatAt") VALUES ('web-3:41:ab', 'web-3', 41, ${beat}, ${beat})`,
      ),
    );
    await database.close();
    const before = await fingerprint(target);
    await expect(restoreBackup({ file, databaseUrl: target, replace: true })).rejects.toThrow(
      /an API on web-3 \(pid 41\) serves this database \(heartbeat \d+ s ago\)/,
    );
    expect(await fingerprint(target)).toBe(before);
    // A beat older than 15 s is a process that is gone...
    await expect(
      restoreBackup({ file, databaseUrl: target, replace: true, now: () => new Date(beat.getTime() + 16_000) }),
    ).resolves.toBeDefined();
    // ...and --force restores over a fresh one (a process killed a moment ago).
    const again = await openDatabase({ url: target, poolSize: 1 });
    await again.sql.transaction(() =>
      execute(
        sql`INSERT INTO "ApiHeartbeat" ("id", "host", "pid", "startedAt", "beatAt") VALUES ('web-3:42:cd', 'web-3', 42, ${beat}, ${new Date()})`,
      ),
    );
    await again.close();
    await expect(restoreBackup({ file, databaseUrl: target, replace: true, force: true })).resolves.toBeDefined();
    expect(await petNames(target)).toEqual(["Rex", "Tom", "Kiki"]);
  });

  if (provider === "sqlite") {
    it("refuses a SQLite target another process holds open (its -wal and -shm stay), and restores once it is closed", async () => {
      const { file } = await takeBackup({ databaseUrl: t.config.databaseUrl, dir });
      // The test app's own database: open, in WAL mode, with pets of its own since the backup.
      await request(t.app)
        .post("/v1/pets")
        .set("Authorization", bearer())
        .send({ name: "After", categoryId: 1 })
        .expect(201);
      const target = t.config.databaseUrl;
      await expect(restoreBackup({ file, databaseUrl: target })).rejects.toThrow(
        /is open in another process \(.*-wal.*\): stop every API/,
      );
      expect(await petNames(target)).toEqual(["Rex", "Tom", "Kiki", "After"]);
      await t.database.close();
      await expect(restoreBackup({ file, databaseUrl: target })).resolves.toMatchObject({ pets: 3 });
      expect(await petNames(target)).toEqual(["Rex", "Tom", "Kiki"]);
    });

    it("a restore over a file left by a killed API checkpoints and removes its -wal and -shm first", async () => {
      const { file } = await takeBackup({ databaseUrl: t.config.databaseUrl, dir });
      const target = await newTarget();
      await restoreBackup({ file, databaseUrl: target });
      // What a killed API leaves: the file, and a WAL with a commit not yet in it.
      const killed = new Sqlite(sqliteFilePath(target));
      killed.pragma("journal_mode = WAL");
      killed.pragma("wal_autocheckpoint = 0");
      killed.prepare(`INSERT INTO "Pet" ("name", "categoryId") VALUES ('Unsaved', 1)`).run();
      // Copies of the three files stand for a process that died without closing.
      const base = sqliteFilePath(target);
      const leftovers = [base, `${base}-wal`, `${base}-shm`].map((from) => [from, `${from}.left`] as const);
      for (const [from, to] of leftovers) copyFileSync(from, to);
      killed.close();
      for (const [from, to] of leftovers) copyFileSync(to, from);
      expect(existsSync(`${base}-wal`)).toBe(true);
      await expect(restoreBackup({ file, databaseUrl: target })).resolves.toMatchObject({ pets: 3 });
      expect(existsSync(`${base}-wal`) || existsSync(`${base}-shm`)).toBe(false);
      expect(await petNames(target)).toEqual(["Rex", "Tom", "Kiki"]);
    });
  } else {
    it("refuses a non-empty PostgreSQL database unless --replace, which replaces what it holds in one transaction", async () => {
      const { file } = await takeBackup({ databaseUrl: t.config.databaseUrl, dir });
      await request(t.app)
        .post("/v1/pets")
        .set("Authorization", bearer())
        .send({ name: "After", categoryId: 1 })
        .expect(201);
      const target = t.config.databaseUrl;
      await expect(restoreBackup({ file, databaseUrl: target })).rejects.toThrow(
        /the database is not empty \(\d+ tables in schema public.*pass --replace/,
      );
      expect(await petNames(target)).toEqual(["Rex", "Tom", "Kiki", "After"]);
      await t.database.close();
      await restoreBackup({ file, databaseUrl: target, replace: true });
      expect(await petNames(target)).toEqual(["Rex", "Tom", "Kiki"]);
    });

    it("a role that may not create databases gets its backup kept but reported unverified, never counted good", async () => {
      const url = new URL(t.config.databaseUrl);
      const role = `petstore_nocreatedb_${randomUUID().replaceAll("-", "").slice(0, 8)}`;
      await withAdminClient(async (client) => {
        await client.query(`CREATE ROLE ${role} LOGIN NOCREATEDB`);
      });
      cleanups.push(() =>
        withAdminClient((client) => client.query(`DROP OWNED BY ${role}; DROP ROLE IF EXISTS ${role}`)).then(
          () => undefined,
        ),
      );
      // The role reads everything pg_dump reads, in the test app's database.
      const owner = await openDatabase({ url: t.config.databaseUrl, poolSize: 1 });
      await owner.sql.transaction(function* () {
        yield* execute(sql`${raw(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${role}`)}`);
        yield* execute(sql`${raw(`GRANT SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role}`)}`);
      });
      await owner.close();
      url.username = role;
      url.password = "";
      const report = await takeBackup({ databaseUrl: url.toString(), dir });
      expect(report).toMatchObject({
        verified: false,
        unverifiedReason: expect.stringMatching(
          /may not create a scratch database.*CREATEDB.*BACKUP_SCRATCH_DATABASE_URL/,
        ) as unknown,
      });
      expect(existsSync(`${report.file}.unverified`)).toBe(true);
      expect(existsSync(sidecarOf(report.file))).toBe(true);
      expect(backupsIn(dir, "postgresql")).toEqual([{ file: report.file, verified: false, bytes: report.bytes }]);
    });

    it("says in one line that pg_dump is missing", async () => {
      const saved = process.env["PATH"];
      process.env["PATH"] = "/nonexistent";
      try {
        await expect(takeBackup({ databaseUrl: t.config.databaseUrl, dir })).rejects.toThrow(
          new BackupRefusal(
            "pg_dump is not installed: install the PostgreSQL client package (Debian: apt-get install postgresql-client)",
          ),
        );
      } finally {
        process.env["PATH"] = saved;
      }
    });
  }
});
