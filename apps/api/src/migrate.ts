import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { databaseProvider, sqliteFilePath } from "./database.js";
import { API_ROOT, childProcessEnv } from "./env.js";

const run = promisify(execFile);

/** The Prisma CLI config for each provider: its schema folder, migrations and driver adapter. */
export const PRISMA_CONFIG = {
  sqlite: path.join(API_ROOT, "prisma.sqlite.config.ts"),
  postgresql: path.join(API_ROOT, "prisma.postgresql.config.ts"),
} as const;

/**
 * Applies the committed migrations with `prisma migrate deploy` (the same
 * command an operator runs on deploy); a no-op when the database is current.
 */
export async function migrateDatabase(databaseUrl: string): Promise<string> {
  const provider = databaseProvider(databaseUrl);
  if (provider === "sqlite") mkdirSync(path.dirname(path.resolve(API_ROOT, sqliteFilePath(databaseUrl))), { recursive: true });
  const prismaCli = createRequire(import.meta.url).resolve("prisma/build/index.js");
  const { stdout } = await run(process.execPath, [prismaCli, "migrate", "deploy", "--config", PRISMA_CONFIG[provider]], {
    cwd: API_ROOT,
    env: childProcessEnv({ DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" }),
  });
  return stdout.trim().split("\n").at(-1) ?? "";
}
