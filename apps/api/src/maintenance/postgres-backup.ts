import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import pg from "pg";
import { BackupRefusal } from "./backup-file.js";
import type { LiveServer } from "./sqlite-backup.js";

const run = promisify(execFile);

/**
 * PostgreSQL backups with the server's own tools: `pg_dump --format=custom` and `pg_restore`, from the
 * PostgreSQL client package. Connection strings are handed to them without Prisma's own parameters
 * (`schema`, `connection_limit`...), which libpq refuses; a `schema` other than public becomes `--schema`.
 */

const PRISMA_ONLY_PARAMETERS = [
  "schema",
  "connection_limit",
  "pool_timeout",
  "socket_timeout",
  "pgbouncer",
  "statement_cache_size",
];

export interface PostgresTarget {
  /** The URL libpq accepts. */
  url: string;
  /** The schema Prisma keeps the tables in. */
  schema: string;
}

export function postgresTarget(databaseUrl: string): PostgresTarget {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get("schema") ?? "public";
  for (const name of PRISMA_ONLY_PARAMETERS) url.searchParams.delete(name);
  return { url: url.toString(), schema };
}

const schemaArgs = (target: PostgresTarget) => (target.schema === "public" ? [] : [`--schema=${target.schema}`]);

async function tool(name: "pg_dump" | "pg_restore", args: string[]): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(name, args, { maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === "ENOENT") {
      throw new BackupRefusal(
        `${name} is not installed: install the PostgreSQL client package (Debian: apt-get install postgresql-client)`,
      );
    }
    const reason =
      (failure.stderr ?? failure.message).split("\n").find((line) => line.trim().length > 0) ?? failure.message;
    throw new BackupRefusal(`${name} failed: ${reason.trim()}`);
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  // A connection the server ends (a restart, a dropped database) fails the query in flight; unheard, the
  // client's 'error' event would end the process.
  client.on("error", () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The major version of a client tool (`pg_dump (PostgreSQL) 15.14` → 15). */
async function toolMajor(name: "pg_dump" | "pg_restore"): Promise<number> {
  const { stdout } = await tool(name, ["--version"]);
  const major = /\(PostgreSQL\)\s+(\d+)/.exec(stdout)?.[1];
  if (!major) throw new BackupRefusal(`cannot read ${name}'s version from "${stdout.trim()}"`);
  return Number(major);
}

/** pg_dump refuses a server newer than itself; say so in one line before it does, naming both. */
async function requireToolForServer(name: "pg_dump" | "pg_restore", target: PostgresTarget): Promise<void> {
  // One after the other: a missing tool must not leave a connection behind still querying.
  const client = await toolMajor(name);
  const server = await withClient(target.url, async (c) =>
    Math.floor(
      Number((await c.query<{ server_version_num: string }>("SHOW server_version_num")).rows[0]!.server_version_num) /
        10_000,
    ),
  );
  if (client < server)
    throw new BackupRefusal(
      `${name} is version ${client}, older than the server's ${server}: install the PostgreSQL ${server} client package`,
    );
}

export async function dumpPostgres(target: PostgresTarget, file: string): Promise<void> {
  await requireToolForServer("pg_dump", target);
  await tool("pg_dump", ["--format=custom", `--file=${file}`, ...schemaArgs(target), `--dbname=${target.url}`]);
}

/** Restores an archive into a database: one transaction (a failure leaves it as it was), objects owned by whoever restores. */
export async function restorePostgres(
  file: string,
  target: PostgresTarget,
  { clean }: { clean: boolean },
): Promise<void> {
  await requireToolForServer("pg_restore", target);
  await tool("pg_restore", [
    "--no-owner",
    "--no-privileges",
    "--exit-on-error",
    "--single-transaction",
    ...(clean ? ["--clean", "--if-exists"] : []),
    `--dbname=${target.url}`,
    file,
  ]);
}

/** Refuses a file that is not a readable pg_dump archive (truncated, another format). */
export async function checkArchive(file: string): Promise<void> {
  await tool("pg_restore", ["--list", file]);
}

/** The migrations a pg_dump archive holds, read from its `_prisma_migrations` data without restoring it. */
export async function migrationsInArchive(file: string): Promise<string[]> {
  const { stdout } = await tool("pg_restore", ["--data-only", "--table=_prisma_migrations", "--file=-", file]);
  const lines = stdout.split("\n");
  const copy = lines.findIndex((line) => /^COPY\s+\S*_prisma_migrations\s*\(/.test(line));
  if (copy === -1) throw new BackupRefusal("the archive is not a Petstore database (no _prisma_migrations data)");
  const columns = /\(([^)]*)\)/
    .exec(lines[copy]!)![1]!
    .split(",")
    .map((column) => column.trim());
  const at = (name: string) => columns.indexOf(name);
  const names: string[] = [];
  for (const line of lines.slice(copy + 1)) {
    if (line === "\\.") break;
    const fields = line.split("\t");
    if (fields[at("finished_at")] === "\\N" || fields[at("rolled_back_at")] !== "\\N") continue;
    names.push(fields[at("migration_name")]!);
  }
  return names;
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** What a restored database holds, as verification checks it. */
export async function inspectPostgres(target: PostgresTarget): Promise<{ migrations: string[]; pets: number }> {
  return withClient(target.url, async (client) => {
    const schema = quoteIdentifier(target.schema);
    const migrations = (
      await client.query<{ name: string }>(
        `SELECT migration_name AS name FROM ${schema}._prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      )
    ).rows.map((row) => row.name);
    const pets = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}."Pet"`)).rows[0]!.n);
    return { migrations, pets };
  });
}

/** The tables of the target's schema: a database with any is not empty. */
export async function tablesIn(target: PostgresTarget): Promise<string[]> {
  return withClient(target.url, async (client) =>
    (
      await client.query<{ name: string }>(
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 ORDER BY tablename",
        [target.schema],
      )
    ).rows.map((row) => row.name),
  );
}

export async function liveServersInPostgres(
  target: PostgresTarget,
  now: Date,
  withinMs: number,
): Promise<LiveServer[]> {
  return withClient(target.url, async (client) => {
    const exists = await client.query("SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = 'ApiHeartbeat'", [
      target.schema,
    ]);
    if (exists.rowCount === 0) return [];
    const since = new Date(now.getTime() - withinMs);
    // "beatAt" is UTC without a zone; compare it as such.
    const { rows } = await client.query<{ host: string; pid: number; beatAt: Date }>(
      `SELECT "host", "pid", "beatAt" AT TIME ZONE 'UTC' AS "beatAt" FROM ${quoteIdentifier(target.schema)}."ApiHeartbeat"
        WHERE "beatAt" > ($1::timestamptz AT TIME ZONE 'UTC') ORDER BY "beatAt" DESC`,
      [since.toISOString()],
    );
    return rows;
  });
}

/**
 * A scratch database to verify a dump in: BACKUP_SCRATCH_DATABASE_URL when set (emptied by the restore's
 * --clean), else a temporary database on the same server, dropped afterwards. Undefined when the role
 * may not create databases: the backup is then reported unverified.
 */
export async function withScratchDatabase<T>(
  target: PostgresTarget,
  scratchUrl: string | undefined,
  work: (scratch: PostgresTarget, clean: boolean) => Promise<T>,
): Promise<T | undefined> {
  if (scratchUrl) return work(postgresTarget(scratchUrl), true);
  const name = `petstore_verify_${randomBytes(6).toString("hex")}`;
  try {
    await withClient(target.url, (client) => client.query(`CREATE DATABASE ${quoteIdentifier(name)}`));
  } catch (error) {
    if ((error as { code?: string }).code === "42501") return undefined;
    throw error;
  }
  const url = new URL(target.url);
  url.pathname = `/${name}`;
  try {
    return await work({ url: url.toString(), schema: target.schema }, false);
  } finally {
    await withClient(target.url, (client) =>
      client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`),
    ).catch(() => {});
  }
}
