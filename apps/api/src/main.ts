import type { IncomingMessage, ServerResponse } from "node:http";
import { createApp } from "./app.js";
import { openDatabase, type Database } from "./data/database.js";
import { ConfigError, loadDotEnvFile, readConfig, type Config } from "./env.js";
import { createHttpServer } from "./http/http-server.js";
import { createLogger } from "./ops/logger.js";
import { migrateDatabase } from "./data/migrate.js";
import { seedPets } from "./data/seed.js";

let config: Config;
try {
  loadDotEnvFile();
  config = readConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const logger = createLogger(config);
const database: Database = await startDatabase(config);
const app = createApp({ config, logger, database });
logger.info(
  config.webDistDir
    ? `serving the admin app from ${config.webDistDir}`
    : "no admin app build (WEB_DIST_DIR unset, apps/web/dist not built): serving the API only",
);

const server = createHttpServer(app, { requestTimeoutMs: config.requestTimeoutMs });
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info({ port, database: database.provider }, `petstore API listening on http://${config.host}:${port}`);
  // A supervising parent with an IPC channel (the tests) learns the port, so it can pass PORT=0 instead of racing for a free one.
  process.send?.({ listening: port });
});

/** Responses not yet finished; at shutdown each is told Connection: close, so its socket ends after it. */
const unfinished = new Set<ServerResponse>();
server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
  if (stopping) res.setHeader("Connection", "close");
  unfinished.add(res);
  res.once("close", () => unfinished.delete(res));
});

let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down: finishing in-flight requests");
  // Force the exit if a client holds a request open past the timeout.
  setTimeout(() => {
    logger.error("in-flight requests did not finish in time; exiting");
    process.exit(1);
  }, config.requestTimeoutMs + 1_000).unref();
  for (const res of unfinished) if (!res.headersSent) res.setHeader("Connection", "close");
  server.close(async () => {
    await database.close();
    logger.info("stopped");
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.once("SIGTERM", () => shutdown("SIGTERM"));
process.once("SIGINT", () => shutdown("SIGINT"));

/**
 * Migrates and opens the database, retrying while it comes up (a PostgreSQL
 * container starting beside us, another replica holding the migration lock),
 * for at most DATABASE_STARTUP_TIMEOUT_MS; then gives up with one clear line.
 */
async function startDatabase(config: Config): Promise<Database> {
  const deadline = Date.now() + config.databaseStartupTimeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      logger.info(await migrateDatabase(config.databaseUrl));
      const database = await openDatabase({ url: config.databaseUrl, poolSize: config.databasePoolSize, sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs });
      if (!(await database.isReady())) {
        await database.close();
        throw new Error("the database does not answer queries");
      }
      if (config.seed) {
        const added = await seedPets(database.pets);
        if (added > 0) logger.info({ added }, "seeded demo pets");
      }
      return database;
    } catch (error) {
      const reason = firstLine(error);
      const wait = Math.min(1_000 * attempt, 5_000);
      if (Date.now() + wait > deadline) {
        logger.fatal(`cannot start: database unavailable after ${attempt} attempt(s): ${reason}`);
        process.exit(1);
      }
      logger.warn(`database not ready (attempt ${attempt}): ${reason}; retrying in ${wait / 1000}s`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** The Prisma CLI's failure output is long; its first meaningful line names the problem. */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? `${(error as { stderr?: string }).stderr ?? ""}\n${error.message}` : String(error);
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !/^(Loaded Prisma config|Prisma config detected|Command failed)/.test(line));
  return [...new Set(lines)].slice(0, 2).join(" ").slice(0, 300);
}
