/**
 * The databases the servers run on. SQLite: a migrated template seeded per
 * dataset, a fresh copy of it for each server. PostgreSQL: the bench's own
 * database, created when missing and migrated; seed.ts fills it.
 */
import { copyFileSync, rmSync } from "node:fs";
import pg from "pg";
import { migrateForBuild } from "./servers.js";

/** Deletes a SQLite database file and its -wal and -shm files, where they are. */
export function removeSqliteFiles(file: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
}

/** `file` becomes a fresh copy of `template` (what an earlier server left there, its WAL included, deleted first). */
export function freshSqliteCopy(template: string, file: string): void {
  removeSqliteFiles(file);
  copyFileSync(template, file);
}

/** Creates the database of `benchUrl` when it is missing and migrates it; false (logged) when PostgreSQL is not reachable. */
export async function ensurePostgresDatabase(
  adminUrl: string,
  benchUrl: string,
  log: (message: string) => void,
): Promise<boolean> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
  try {
    await admin.connect();
  } catch (error) {
    log(`postgresql: not reachable at ${adminUrl} (${(error as Error).message}); skipped`);
    return false;
  }
  try {
    const name = new URL(benchUrl).pathname.slice(1);
    const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const migrateStart = Date.now();
  await migrateForBuild(benchUrl);
  log(`postgresql: migrated ${benchUrl} in ${((Date.now() - migrateStart) / 1000).toFixed(1)} s`);
  return true;
}
