import { randomUUID } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { createApp } from "../app.js";
import { openDatabase } from "../database.js";
import { readConfig } from "../env.js";
import { createLogger } from "../logger.js";

export const TEST_KEY = "test-key-0123456789";
export const SECOND_TEST_KEY = "rotated-key-abcdef";
export const bearer = (key = TEST_KEY) => `Bearer ${key}`;

/** A fresh SQLite file, already migrated, in its own temporary folder. */
export function freshSqliteUrl(): { url: string; remove: () => void } {
  const folder = mkdtempSync(path.join(tmpdir(), "petstore-db-"));
  const file = path.join(folder, `${randomUUID()}.db`);
  copyFileSync(inject("sqliteTemplate"), file);
  return { url: `file:${file}`, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * The real app on a fresh database, without a network port. Log lines are
 * captured so tests can read them. Abuse limits are off unless a test sets them.
 */
export async function createTestApp(env: Record<string, string> = {}) {
  const db = freshSqliteUrl();
  const config = readConfig({
    NODE_ENV: "test",
    API_KEYS: `${TEST_KEY},${SECOND_TEST_KEY}`,
    DATABASE_URL: db.url,
    RATE_LIMIT_PER_MIN: "0",
    AUTH_FAILURES_PER_MIN: "0",
    LOG_LEVEL: "info",
    ...env,
  });
  const logs: string[] = [];
  const logger = createLogger(config, { write: (line: string) => void logs.push(line) });
  const database = await openDatabase({ url: config.databaseUrl, poolSize: config.databasePoolSize });
  const app = createApp({ config, logger, database });
  return {
    app,
    config,
    database,
    logs,
    async close() {
      await database.close();
      db.remove();
    },
  };
}
export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
