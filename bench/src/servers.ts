/**
 * The servers the bench measures, started the same way by run.ts and cpu.ts:
 * the API as its `start` script starts it with its production settings, and
 * the floors (express-floor-server.ts, the production floor;
 * bare-express-floor-server.ts, the bare Express floor; baseline-server.ts), every one with
 * the same key, database and pool size, its stdout (its log lines) to a file.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { migrateDatabase } from "@petstore/api/migrate";
import { productionApiCommand, startServer, type RunningServer } from "./server-process.js";
import { isApiServer, type ServerKind } from "./targets.js";

export const BENCH_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Where the reports and profiles go (git ignores it). */
export const RESULTS = path.join(BENCH_ROOT, "results");
export const API_KEY = "bench-petstore-key-0123456789abcdefgh"; // production wants >= 32 characters
/** PostgreSQL connections per server (the API's default). */
export const POOL_SIZE = "10";
export const PG_ADMIN_URL = process.env["BENCH_PG_ADMIN_URL"] ?? "postgresql://postgres@127.0.0.1:5432/postgres";
/** BENCH_API_MAIN's build runs on a database of its own, migrated with its own migrations (migrateForBuild). */
export const PG_BENCH_URL =
  process.env["BENCH_PG_URL"] ??
  `postgresql://postgres@127.0.0.1:5432/petstore_bench${process.env["BENCH_API_MAIN"] ? "_main" : ""}`;

const FLOOR_SCRIPTS: Record<Exclude<ServerKind, "api" | "api-keyed">, string> = {
  production: path.join(BENCH_ROOT, "dist", "express-floor-server.js"),
  bare: path.join(BENCH_ROOT, "dist", "bare-express-floor-server.js"),
  baseline: path.join(BENCH_ROOT, "dist", "baseline-server.js"),
};

/** The API package's folder (its `keys create` command runs from there). */
export const apiRoot = (): string => path.dirname(createRequire(import.meta.url).resolve("@petstore/api/package.json"));

/**
 * The folder of the API build being measured: BENCH_API_MAIN's (the package above its dist/main.js), else this
 * workspace's. Its operator commands run on its databases: this workspace's `keys create` would migrate a
 * baseline's database to this workspace's schema (its start migrates), and the baseline would then pay for
 * (or, on PostgreSQL, fail on) what later migrations changed.
 */
export const measuredApiRoot = (): string => {
  const main = process.env["BENCH_API_MAIN"];
  return main ? path.resolve(path.dirname(main), "..") : apiRoot();
};

/**
 * Migrates a bench database with the migrations of the build being measured, never this workspace's: a
 * baseline build must run on its own schema, or it would pay for what a later migration added (an index,
 * a trigger) and a before/after comparison would hide that cost.
 */
export async function migrateForBuild(databaseUrl: string): Promise<string> {
  const migrate = (await import(pathToFileURL(path.join(measuredApiRoot(), "dist", "data", "migrate.js")).href)) as {
    migrateDatabase: typeof migrateDatabase;
  };
  return migrate.migrateDatabase(databaseUrl);
}

let apiCommandRead: ReturnType<typeof productionApiCommand> | undefined;
/**
 * How production starts the API (or BENCH_API_MAIN, another build of it, for before/after figures); read once, when
 * first asked. Throws when the API's start script is not `node [--flag ...] <file>`: the entries ask first, to fail before seeding.
 */
export function apiCommand(): ReturnType<typeof productionApiCommand> {
  apiCommandRead ??= productionApiCommand(apiRoot());
  return apiCommandRead;
}

/** The API's production settings: what the bench may not leave out (see docs/performance.md, "Method"). */
function apiEnvironment(databaseUrl: string, extra: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: "production",
    API_KEYS: API_KEY,
    DATABASE_URL: databaseUrl,
    SEED: "false",
    LOG_LEVEL: "info",
    // Counting on, as in production (the floor counts too), at a budget the run never reaches.
    RATE_LIMIT_PER_MIN: "100000000",
    // The production default: failures are counted per address (no run sends a bad key).
    AUTH_FAILURES_PER_MIN: "60",
    // Request metrics on, as in production.
    METRICS_TOKEN: "bench-metrics-token-0123456789abcdef",
    CHECKPOINT_DISABLE: "1",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    DATABASE_POOL_SIZE: POOL_SIZE,
    // No load balancer to drain for: stop at once on SIGTERM.
    SHUTDOWN_DRAIN_MS: "0",
    // Production refuses to start without its public address (the OpenAPI documents' server).
    PUBLIC_URL_PRODUCTION: "https://api.petstore.test/v1",
    ...extra,
  };
}

export interface ServerStart {
  databaseUrl: string;
  /** The server's stdout (its log lines) goes to this file. */
  logFile: string;
  /** The floors' working folder (the API runs from its package's, as in production). */
  cwd: string;
  /** Pin the server to this core (load.ts, SERVER_CPU); unset: not pinned. */
  cpu?: number;
  /** Run under node --cpu-prof, writing `<dir>/<name>.cpuprofile`. */
  profile?: { dir: string; name: string };
  /** The API's extra environment (--api-env, and anything else the caller adds); the floors take none. */
  apiEnv?: Record<string, string>;
}

/** Starts one server of `kind` and waits until it is ready (server-process.ts, startServer). */
export function startBenchServer(
  kind: ServerKind,
  { databaseUrl, logFile, cwd, cpu, profile, apiEnv = {} }: ServerStart,
): Promise<RunningServer> {
  const profileArgs = profile
    ? ["--cpu-prof", `--cpu-prof-dir=${profile.dir}`, `--cpu-prof-name=${profile.name}.cpuprofile`]
    : [];
  if (isApiServer(kind)) {
    const command = apiCommand();
    return startServer(command.script, apiEnvironment(databaseUrl, apiEnv), {
      nodeArgs: [...command.nodeArgs, ...profileArgs],
      cwd: command.cwd,
      logFile,
      cpu,
    });
  }
  return startServer(
    FLOOR_SCRIPTS[kind],
    { API_KEYS: API_KEY, DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: POOL_SIZE },
    { nodeArgs: profileArgs, cwd, logFile, cpu },
  );
}

/** A moment as a folder name: 2025-01-31T12-00-00. */
export const timeStamp = (date = new Date()): string => date.toISOString().replace(/[:.]/g, "-").slice(0, 19);
