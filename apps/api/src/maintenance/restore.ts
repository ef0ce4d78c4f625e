import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { databaseProvider, sqliteFilePath } from "../base/database-url.js";
import { BACKUP_EXTENSION, BackupRefusal, checkSidecar } from "./backup-file.js";
import { refuseNewer } from "./backup.js";
import {
  inspectSqlite,
  liveServersInSqlite,
  releaseSqliteTarget,
  stageBeside,
  swapInSqliteFile,
  type LiveServer,
} from "./sqlite-backup.js";
import {
  checkArchive,
  liveServersInPostgres,
  migrationsInArchive,
  postgresTarget,
  restorePostgres,
  tablesIn,
} from "./postgres-backup.js";

/** Every API process writes its heartbeat this often... */
export const HEARTBEAT_EVERY_MS = 5_000;
/** ...so a beat newer than this means a process serves the database now. */
export const LIVE_HEARTBEAT_MS = 15_000;

export interface RestoreOptions {
  file: string;
  databaseUrl: string;
  /** Restores even when a heartbeat newer than 15 s says an API serves the target (one that died just now). */
  force?: boolean;
  /** PostgreSQL: replaces what a non-empty target holds. */
  replace?: boolean;
  now?: () => Date;
}

export interface RestoreReport {
  target: string;
  pets?: number;
  migrations: number;
}

/**
 * Restores a backup into the database `databaseUrl` names, or refuses with one line and leaves the target
 * as it was: a file whose SHA-256 is not its sidecar's; one that fails its integrity check; a backup newer
 * than this code (naming both); a target an API serves (its heartbeat, naming the host; `force` overrides);
 * a SQLite target another process holds open; a non-empty PostgreSQL database (`replace` overrides).
 * The API migrates the restored database at its next start when it is older than the code.
 */
export async function restoreBackup({
  file,
  databaseUrl,
  force = false,
  replace = false,
  now = () => new Date(),
}: RestoreOptions): Promise<RestoreReport> {
  if (!existsSync(file)) throw new BackupRefusal(`no backup at ${file}`);
  const provider = databaseProvider(databaseUrl);
  if (!file.endsWith(`.${BACKUP_EXTENSION[provider]}`)) {
    throw new BackupRefusal(
      `${path.basename(file)} is not a ${provider === "sqlite" ? "SQLite backup (.sqlite)" : "PostgreSQL backup (.pgdump)"}, and DATABASE_URL names a ${provider} database`,
    );
  }
  await checkSidecar(file);
  const refuseLive = (servers: LiveServer[]) => {
    if (servers.length === 0 || force) return;
    const [latest] = servers;
    const seconds = Math.max(0, Math.round((now().getTime() - latest!.beatAt.getTime()) / 1000));
    throw new BackupRefusal(
      `an API on ${latest!.host} (pid ${latest!.pid}) serves this database (heartbeat ${seconds} s ago): stop every API on it first, or pass --force if it is gone`,
    );
  };

  if (provider === "sqlite") {
    const target = sqliteFilePath(databaseUrl);
    mkdirSync(path.dirname(target), { recursive: true });
    const staged = stageBeside(file, target);
    try {
      const found = inspectSqlite(staged);
      if (found.integrity !== "ok")
        throw new BackupRefusal(`${path.basename(file)} failed its integrity check: ${found.integrity}`);
      refuseNewer("sqlite", found.migrations);
      if (existsSync(target)) refuseLive(liveServersInSqlite(target, now(), LIVE_HEARTBEAT_MS));
      releaseSqliteTarget(target);
      swapInSqliteFile(staged, target);
      return { target, pets: found.pets, migrations: found.migrations.length };
    } finally {
      rmSync(staged, { force: true });
    }
  }

  const target = postgresTarget(databaseUrl);
  await checkArchive(file).catch((error: unknown) => {
    throw new BackupRefusal(
      `${path.basename(file)} is not a readable pg_dump archive: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  const migrations = await migrationsInArchive(file);
  refuseNewer("postgresql", migrations);
  refuseLive(await liveServersInPostgres(target, now(), LIVE_HEARTBEAT_MS));
  const tables = await tablesIn(target);
  if (tables.length > 0 && !replace) {
    throw new BackupRefusal(
      `the database is not empty (${tables.length} tables in schema ${target.schema}, ${tables.slice(0, 3).join(", ")}…): pass --replace to replace what it holds`,
    );
  }
  await restorePostgres(file, target, { clean: tables.length > 0 });
  return { target: new URL(target.url).pathname.slice(1), migrations: migrations.length };
}
