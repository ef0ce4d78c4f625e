import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { databaseProvider, sqliteFilePath, type DatabaseProvider } from "../base/database-url.js";
import { API_ROOT } from "../base/env.js";

const run = promisify(execFile);

/** The Prisma CLI config for each provider: its schema folder, migrations and driver adapter. */
const PRISMA_CONFIG = {
  sqlite: path.join(API_ROOT, "prisma.sqlite.config.ts"),
  postgresql: path.join(API_ROOT, "prisma.postgresql.config.ts"),
} as const;

/** The committed migrations of each provider (the `migrations.path` of its Prisma config). */
export const MIGRATIONS_FOLDER = {
  sqlite: path.join(API_ROOT, "prisma", "sqlite", "migrations"),
  postgresql: path.join(API_ROOT, "prisma", "postgresql", "migrations"),
} as const;

export interface MigrateOptions {
  /** Runs `prisma migrate deploy`; replaceable so tests can see whether it ran. */
  deploy?: (databaseUrl: string) => Promise<string>;
}

/**
 * Brings the database up to the committed migrations. Starting the Prisma CLI
 * costs ~1.5 s on SQLite and ~12 s on PostgreSQL even when nothing is pending,
 * so the `_prisma_migrations` table is read first over the runtime driver; the
 * CLI (`prisma migrate deploy`, the command an operator runs on deploy) runs
 * only when a migration is missing, failed, or differs from the committed file.
 *
 * Replicas starting together may both find a migration pending and both run
 * the CLI: that is safe, Prisma serialises them with its advisory lock and the
 * second finds nothing left to do.
 */
export async function migrateDatabase(
  databaseUrl: string,
  { deploy = prismaMigrateDeploy }: MigrateOptions = {},
): Promise<string> {
  const pending = await pendingMigrations(databaseUrl);
  if (pending.length === 0) return "No pending migrations: the database is current.";
  return deploy(databaseUrl);
}

/**
 * Names of the committed migrations the database has not applied as committed
 * (absent, failed, rolled back, or with another checksum). When the table
 * cannot be read (a fresh database, no table yet) every migration is pending.
 */
export async function pendingMigrations(databaseUrl: string): Promise<string[]> {
  const provider = databaseProvider(databaseUrl);
  const committed = committedMigrations(provider);
  let applied: AppliedMigration[];
  try {
    applied = await appliedMigrations(provider, databaseUrl);
  } catch {
    // No table, no file, or no server: the CLI decides, and reports any real problem.
    return committed.map(({ name }) => name);
  }
  const current = new Set(applied.map(({ name, checksum }) => `${name}\n${checksum}`));
  return committed.filter(({ name, checksum }) => !current.has(`${name}\n${checksum}`)).map(({ name }) => name);
}

interface AppliedMigration {
  name: string;
  checksum: string;
}

/** The names of the code's migrations for a provider, oldest first. */
export const committedMigrationNames = (provider: DatabaseProvider): string[] =>
  committedMigrations(provider).map(({ name }) => name);

/**
 * The migrations a database (or backup) applied that this code does not have: it was made by a newer
 * version, and this code would not know its schema. Empty when the code is as new or newer.
 */
export function migrationsNewerThanCode(provider: DatabaseProvider, applied: readonly string[]): string[] {
  const known = new Set(committedMigrationNames(provider));
  return applied.filter((name) => !known.has(name)).sort();
}

/** Each migration folder with its migration.sql's SHA-256 (hex), the checksum Prisma records. */
function committedMigrations(provider: DatabaseProvider): AppliedMigration[] {
  const folder = MIGRATIONS_FOLDER[provider];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(folder, entry.name, "migration.sql")))
    .map((entry) => ({
      name: entry.name,
      checksum: createHash("sha256")
        .update(readFileSync(path.join(folder, entry.name, "migration.sql")))
        .digest("hex"),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

const APPLIED_MIGRATIONS_SQL =
  "SELECT migration_name AS name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL";

async function appliedMigrations(provider: DatabaseProvider, databaseUrl: string): Promise<AppliedMigration[]> {
  if (provider === "sqlite") {
    const { default: Sqlite } = await import("better-sqlite3");
    const connection = new Sqlite(sqliteFilePath(databaseUrl), { fileMustExist: true });
    try {
      return connection.prepare(APPLIED_MIGRATIONS_SQL).all() as AppliedMigration[];
    } finally {
      connection.close();
    }
  }
  const { default: pg } = await import("pg");
  // Prisma keeps its table in the schema the URL names (`?schema=`), public by default.
  const schema = new URL(databaseUrl).searchParams.get("schema") ?? "public";
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const sql = APPLIED_MIGRATIONS_SQL.replace(
      "_prisma_migrations",
      `"${schema.replaceAll('"', '""')}"._prisma_migrations`,
    );
    return (await client.query<AppliedMigration>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** `prisma migrate deploy` for the provider the URL names; returns the CLI's last line. */
async function prismaMigrateDeploy(databaseUrl: string): Promise<string> {
  const provider = databaseProvider(databaseUrl);
  if (provider === "sqlite")
    mkdirSync(path.dirname(path.resolve(API_ROOT, sqliteFilePath(databaseUrl))), { recursive: true });
  const prismaCli = createRequire(import.meta.url).resolve("prisma/build/index.js");
  const { stdout } = await run(
    process.execPath,
    [prismaCli, "migrate", "deploy", "--config", PRISMA_CONFIG[provider]],
    {
      cwd: API_ROOT,
      env: childProcessEnv({ DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" }),
    },
  );
  return stdout.trim().split("\n").at(-1) ?? "";
}

/**
 * The Prisma CLI runs with this process's whole environment (PATH, proxies,
 * locale) plus `extra`: passed through, not read as configuration.
 */
function childProcessEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  // eslint-disable-next-line no-restricted-properties -- inherited whole by the child, not configuration (see env.ts)
  return { ...process.env, ...extra };
}
