import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { databaseProvider, sqliteFilePath } from "../base/database-url.js";
import { committedMigrationNames, migrationsNewerThanCode } from "../data/migrate.js";
import { backupFileName, BackupRefusal, unverifiedMarkerOf, writeSidecar } from "./backup-file.js";
import { copySqliteOnline, inspectSqlite } from "./sqlite-backup.js";
import {
  dumpPostgres,
  inspectPostgres,
  postgresTarget,
  restorePostgres,
  withScratchDatabase,
} from "./postgres-backup.js";

export interface BackupOptions {
  databaseUrl: string;
  /** The folder the backup goes to (made when missing). */
  dir: string;
  /** PostgreSQL: where a dump is restored to be verified; unset, a temporary database. */
  scratchDatabaseUrl?: string;
  now?: () => Date;
}

export interface BackupReport {
  file: string;
  bytes: number;
  /** The pets the verification counted in the restored copy. */
  pets: number;
  seconds: number;
  /** Restored and checked; false only when PostgreSQL gave no scratch database to restore it in. */
  verified: boolean;
  /** Why it is unverified. */
  unverifiedReason?: string;
}

/**
 * Takes a backup of the database `databaseUrl` names while the API serves it, and verifies it by
 * restoring it into a scratch database: `integrity_check` ok (SQLite), its migrations the code's or
 * older, its pets counted. The file appears under its final name only once written; it has its SHA-256
 * sidecar once verified (or marked `.unverified` when it could not be). A failure leaves no backup
 * behind and throws a BackupRefusal with one line.
 */
export async function takeBackup({
  databaseUrl,
  dir,
  scratchDatabaseUrl,
  now = () => new Date(),
}: BackupOptions): Promise<BackupReport> {
  const started = now();
  const startedMs = performance.now();
  const provider = databaseProvider(databaseUrl);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, backupFileName(provider, started));
  const partial = `${file}.partial`;
  try {
    let pets: number;
    let verified = true;
    let unverifiedReason: string | undefined;
    if (provider === "sqlite") {
      await copySqliteOnline(sqliteFilePath(databaseUrl), partial);
      pets = verifySqliteCopy(partial);
    } else {
      const target = postgresTarget(databaseUrl);
      await dumpPostgres(target, partial);
      const counted = await withScratchDatabase(target, scratchDatabaseUrl, async (scratch, clean) => {
        await restorePostgres(partial, scratch, { clean });
        const found = await inspectPostgres(scratch);
        refuseNewer("postgresql", found.migrations);
        return found.pets;
      });
      if (counted === undefined) {
        verified = false;
        unverifiedReason =
          "the database role may not create a scratch database to restore it in (grant CREATEDB or set BACKUP_SCRATCH_DATABASE_URL)";
      }
      pets = counted ?? 0;
    }
    renameSync(partial, file);
    if (!verified) writeFileSync(unverifiedMarkerOf(file), `${unverifiedReason}\n`);
    await writeSidecar(file);
    return {
      file,
      bytes: statSync(file).size,
      pets,
      seconds: (performance.now() - startedMs) / 1000,
      verified,
      ...(unverifiedReason ? { unverifiedReason } : {}),
    };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error instanceof BackupRefusal
      ? error
      : new BackupRefusal(`backup failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Restores the copy into a scratch file (opening writes to it) and checks it; answers its pets. */
function verifySqliteCopy(copy: string): number {
  const scratchDir = mkdtempSync(path.join(tmpdir(), "petstore-verify-"));
  try {
    const scratch = path.join(scratchDir, "verify.sqlite");
    copyFileSync(copy, scratch);
    const found = inspectSqlite(scratch);
    if (found.integrity !== "ok") throw new BackupRefusal(`the backup failed its integrity check: ${found.integrity}`);
    refuseNewer("sqlite", found.migrations);
    return found.pets;
  } finally {
    rmSync(scratchDir, { recursive: true, force: true });
  }
}

/** A backup or restore of a database this code is too old to read, naming both versions. */
export function refuseNewer(provider: "sqlite" | "postgresql", migrations: readonly string[]): void {
  const newer = migrationsNewerThanCode(provider, migrations);
  if (newer.length === 0) return;
  const codeNewest = committedMigrationNames(provider).at(-1) ?? "none";
  throw new BackupRefusal(
    `the backup's migrations are newer than this code's: it has ${newer.join(", ")}; the code's newest is ${codeNewest} (restore it with the version of Petstore that made it)`,
  );
}
