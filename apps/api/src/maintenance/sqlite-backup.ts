import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import Sqlite from "better-sqlite3";
import { BackupRefusal } from "./backup-file.js";

/** What a SQLite database file holds, as backup and restore check it. */
export interface SqliteInspection {
  /** `PRAGMA integrity_check`'s answer: `ok`, or its first problems. */
  integrity: string;
  /** The migrations it applied, by name. */
  migrations: string[];
  pets: number;
}

/**
 * Copies a live database with SQLite's online backup API, never as a file copy: a copy of the file and
 * its `-wal` taken while the API commits can be torn. All pages go in one step, which reads one
 * snapshot: on a WAL database the API goes on writing meanwhile, and no write by another connection
 * makes the copy start over (as it would between smaller steps). The copy is then made a single
 * self-contained file (journal mode DELETE), so it needs no `-wal` beside it.
 */
export async function copySqliteOnline(sourceFile: string, destination: string, busyTimeoutMs = 5_000): Promise<void> {
  if (!existsSync(sourceFile)) throw new BackupRefusal(`no database at ${sourceFile}`);
  const source = new Sqlite(sourceFile, { fileMustExist: true });
  try {
    source.pragma(`busy_timeout = ${busyTimeoutMs}`);
    await source.backup(destination, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const copy = new Sqlite(destination, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
  } finally {
    copy.close();
  }
  fsyncFile(destination);
}

/** Opens the file (a scratch copy: opening may write to it) and reads what backup and restore check. */
export function inspectSqlite(file: string): SqliteInspection {
  const db = new Sqlite(file, { fileMustExist: true });
  try {
    let integrity: string;
    try {
      const answers = db.pragma("integrity_check") as Array<{ integrity_check: string }>;
      integrity = answers
        .map((answer) => answer.integrity_check)
        .slice(0, 3)
        .join("; ");
    } catch (error) {
      // Not a database at all ("file is not a database"), or one too damaged to read.
      integrity = error instanceof Error ? error.message : String(error);
      return { integrity, migrations: [], pets: 0 };
    }
    if (integrity !== "ok") return { integrity, migrations: [], pets: 0 };
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(
        (row) => row.name,
      ),
    );
    if (!tables.has("_prisma_migrations") || !tables.has("Pet")) {
      throw new BackupRefusal(`${path.basename(file)} is not a Petstore database (no _prisma_migrations or Pet table)`);
    }
    const migrations = (
      db
        .prepare(
          "SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
        )
        .all() as Array<{ name: string }>
    ).map((row) => row.name);
    const pets = (db.prepare(`SELECT count(*) AS n FROM "Pet"`).get() as { n: number }).n;
    return { integrity, migrations, pets };
  } finally {
    db.close();
  }
}

/** An API process that wrote its heartbeat into the database within `withinMs`. */
export interface LiveServer {
  host: string;
  pid: number;
  beatAt: Date;
}

/** The API processes serving this SQLite file lately (none when the table is older than heartbeats). */
export function liveServersInSqlite(file: string, now: Date, withinMs: number): LiveServer[] {
  const db = new Sqlite(file, { fileMustExist: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ApiHeartbeat'").get();
    if (!table) return [];
    const since = new Date(now.getTime() - withinMs).toISOString().replace("Z", "+00:00");
    return (
      db
        .prepare(`SELECT "host", "pid", "beatAt" FROM "ApiHeartbeat" WHERE "beatAt" > ? ORDER BY "beatAt" DESC`)
        .all(since) as Array<{ host: string; pid: number; beatAt: string }>
    ).map((row) => ({ host: row.host, pid: row.pid, beatAt: new Date(row.beatAt) }));
  } finally {
    db.close();
  }
}

/**
 * Makes the target ready to be replaced: checkpoints its WAL into the file and closes, which removes
 * `-wal` and `-shm` when no other connection has it open. Left behind, they would be read into the
 * restored file and tear it; so when they stay (another process holds the database), this refuses.
 */
export function releaseSqliteTarget(target: string): void {
  if (!existsSync(target)) {
    for (const leftover of [`${target}-wal`, `${target}-shm`]) rmSync(leftover, { force: true });
    return;
  }
  const db = new Sqlite(target, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 1000");
    db.pragma("wal_checkpoint(TRUNCATE)");
  } catch (error) {
    db.close();
    throw new BackupRefusal(
      `cannot checkpoint ${path.basename(target)} (${error instanceof Error ? error.message : String(error)}): another process holds it; stop the API first`,
    );
  }
  db.close();
  const stayed = [`${target}-wal`, `${target}-shm`].filter((file) => existsSync(file));
  if (stayed.length > 0) {
    throw new BackupRefusal(
      `${path.basename(target)} is open in another process (${stayed.map((file) => path.basename(file)).join(" and ")} stay after a checkpoint): stop every API and command using it first`,
    );
  }
}

/** Puts `staged` in place of `target` in one rename (same folder), so a failure leaves the old file whole. */
export function swapInSqliteFile(staged: string, target: string): void {
  fsyncFile(staged);
  renameSync(staged, target);
  fsyncFile(path.dirname(target));
}

/** The copy made beside the target (same file system, so the swap is one rename). */
export function stageBeside(file: string, target: string): string {
  const staged = `${target}.restoring-${process.pid}`;
  copyFileSync(file, staged);
  return staged;
}

function fsyncFile(file: string): void {
  const fd = openSync(file, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
