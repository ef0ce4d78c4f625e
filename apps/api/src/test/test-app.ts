import { createEventLog, LOGGED_TYPES } from "../events/event-log.js";
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, inject } from "vitest";
import { createApp, type AppDeps } from "../app.js";
import { openDatabase, type Database } from "../database.js";
import { configuredKeyId } from "../access/configured-keys.js";
import type { DatabaseProvider } from "../base/database-url.js";
import { readConfig } from "../base/env.js";
import { createLogger } from "../ops/logger.js";
import { abuseLimitsFromConfig } from "../access/rate-limit.js";
import { createDatabase, databaseUrl, dropDatabase } from "./postgres-admin.js";

// At least 32 characters: the built API runs these keys with NODE_ENV=production.
export const TEST_KEY = "test-key-0123456789abcdefghijklmnop";
export const SECOND_TEST_KEY = "rotated-key-abcdef0123456789ghijkl";
export const bearer = (key = TEST_KEY) => `Bearer ${key}`;

/** The databases this run tests against: SQLite always, PostgreSQL where a server can be had. */
export const TEST_PROVIDERS: DatabaseProvider[] = inject("postgresTemplate") ? ["sqlite", "postgresql"] : ["sqlite"];

export interface TestDatabase {
  url: string;
  remove: () => Promise<void>;
}

/** A fresh, migrated, empty database: a copy of the run's template. */
export async function freshDatabase(provider: DatabaseProvider = "sqlite"): Promise<TestDatabase> {
  if (provider === "postgresql") {
    const template = inject("postgresTemplate");
    if (!template) throw new Error("no PostgreSQL template: the server was not reachable at setup");
    const name = `petstore_test_${process.pid}_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    await createDatabase(name, template);
    return { url: databaseUrl(name), remove: () => dropDatabase(name) };
  }
  const folder = mkdtempSync(path.join(tmpdir(), "petstore-db-"));
  const file = path.join(folder, `${randomUUID()}.db`);
  copyFileSync(inject("sqliteTemplate"), file);
  return { url: `file:${file}`, remove: async () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * The real app on a fresh database, without a network port. Log lines are
 * captured so tests can read them. Abuse limits are off unless a test sets them.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  provider: DatabaseProvider = "sqlite",
  /** Namespaces the Redis counters (with REDIS_URL set), so tests sharing a Redis do not share budgets by accident. */
  redisKeyPrefix = `petstore-test:${randomUUID()}`,
  /** The app's wall clock (sessions and tokens), for tests that move it. */
  now?: () => number,
  /** Single sign-on's fetch: one that trusts a test identity provider's certificate authority. */
  oidcFetch?: AppDeps["oidcFetch"],
) {
  const db = await freshDatabase(provider);
  const config = readConfig({
    NODE_ENV: "test",
    API_KEYS: `${TEST_KEY},${SECOND_TEST_KEY}`,
    DATABASE_URL: db.url,
    RATE_LIMIT_PER_MIN: "0",
    AUTH_FAILURES_PER_MIN: "0",
    LOG_LEVEL: "info",
    ...env,
  });
  // The workspace's web build comes and goes with `turbo build`: a test gets an admin app only when it names one.
  if (!env["WEB_DIST_DIR"]) config.webDistDir = undefined;
  const logs: string[] = [];
  const logger = createLogger(config, { write: (line: string) => void logs.push(line) });
  const database = await openDatabase({
    url: config.databaseUrl,
    poolSize: config.databasePoolSize,
    sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs,
  });
  const abuseLimits = abuseLimitsFromConfig(config, logger, { keyPrefix: redisKeyPrefix });
  await abuseLimits.whenReady();
  const app = createApp({
    config,
    logger,
    database,
    abuseLimits,
    ...(now ? { now } : {}),
    ...(oidcFetch ? { oidcFetch } : {}),
  });
  return {
    app,
    config,
    database,
    logs,
    async close() {
      await abuseLimits.close();
      await database.close();
      await db.remove();
    },
  };
}
export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * For suites that start several apps per test: `start(env)` is `createTestApp`
 * on SQLite, and every app it started is closed after each test. Call it at
 * the suite's top level.
 */
export function startsAppsClosedAfterEach(): (
  env: Record<string, string>,
  redisKeyPrefix?: string,
) => Promise<TestApp> {
  const running: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((t) => t.close()));
  });
  return async (env, redisKeyPrefix) => {
    const t = await createTestApp(env, "sqlite", redisKeyPrefix);
    running.push(t);
    return t;
  };
}

/** The caller id of a configured key on a database (`configured-<fingerprint>`, under that deployment's salt). */
export async function configuredKeyIdOn(database: Pick<Database, "access">, key = TEST_KEY): Promise<string> {
  return configuredKeyId(await database.access.keyFingerprintSalt(), key);
}

/**
 * Waits until the event log shows `count` events to its readers. On PostgreSQL an event is read once
 * every transaction that started before it has ended, in any database of the server
 * (docs/decisions/053-one-event-log.md): another test's open transaction can hold it back a while.
 */
export async function untilEventsVisible(
  database: Pick<Database, "sql">,
  count: number,
  timeoutMs = 10_000,
): Promise<void> {
  const log = createEventLog(database.sql);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await log.readPage({ after: undefined, types: LOGGED_TYPES, take: 100 });
    const seen = page.kind === "page" ? page.events.length : 0;
    if (seen >= count) return;
    if (Date.now() > deadline)
      throw new Error(`the event log shows ${seen} events, not ${count}, after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
