import type { Logger } from "pino";
import type { Config } from "./base/env.js";
import { openDatabase, type Database } from "./database.js";
import { migrateDatabase } from "./data/migrate.js";
import { seedPets } from "./pets/demo-pets.js";

/** Thrown when the database did not come up within DATABASE_STARTUP_TIMEOUT_MS; its message is the one line to print. */
export class DatabaseStartError extends Error {}

/**
 * Migrates and opens the database, retrying while it comes up (a PostgreSQL
 * container starting beside us, another replica holding the migration lock),
 * for at most DATABASE_STARTUP_TIMEOUT_MS; then gives up with one clear line.
 */
export async function startDatabase(
  config: Pick<
    Config,
    "databaseUrl" | "databasePoolSize" | "sqliteBusyTimeoutMs" | "databaseStartupTimeoutMs" | "seed"
  >,
  logger: Logger,
): Promise<Database> {
  const deadline = Date.now() + config.databaseStartupTimeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      logger.info(await migrateDatabase(config.databaseUrl));
      const database = await openDatabase({
        url: config.databaseUrl,
        poolSize: config.databasePoolSize,
        sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs,
      });
      if (!(await database.isReady())) {
        await database.close();
        throw new Error("the database does not answer queries");
      }
      // Pets stored before the search key existed, with names SQL could not fold: before the first search.
      const keyed = await database.pets.fillMissingNameKeys();
      if (keyed > 0) logger.info({ keyed }, "computed missing name search keys");
      if (config.seed) {
        const added = await seedPets(database.pets, database.sql);
        if (added > 0) logger.info({ added }, "seeded demo pets");
      }
      return database;
    } catch (error) {
      const reason = firstLine(error);
      const wait = Math.min(1_000 * attempt, 5_000);
      if (Date.now() + wait > deadline) {
        throw new DatabaseStartError(`cannot start: database unavailable after ${attempt} attempt(s): ${reason}`);
      }
      logger.warn(`database not ready (attempt ${attempt}): ${reason}; retrying in ${wait / 1000}s`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** The Prisma CLI's failure output is long; its first meaningful line names the problem. */
function firstLine(error: unknown): string {
  const text =
    error instanceof Error ? `${(error as { stderr?: string }).stderr ?? ""}\n${error.message}` : String(error);
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !/^(Loaded Prisma config|Prisma config detected|Command failed)/.test(line));
  return [...new Set(lines)].slice(0, 2).join(" ").slice(0, 300);
}
