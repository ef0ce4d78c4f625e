import { createApp } from "./app.js";
import { openDatabase, type Database } from "./database.js";
import { ConfigError, readConfig, type Config } from "./env.js";
import { createLogger } from "./logger.js";
import { migrateDatabase } from "./migrate.js";
import { seedPets } from "./seed.js";

let config: Config;
try {
  config = readConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const logger = createLogger(config);
const database: Database = await startDatabase(config);
const app = createApp({ config, logger, database });

const server = app.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info({ port, database: database.provider }, `petstore API listening on http://${config.host}:${port}`);
});
server.requestTimeout = config.requestTimeoutMs;
server.headersTimeout = Math.min(config.requestTimeoutMs, 60_000);
server.keepAliveTimeout = 5_000;

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
  server.close(async () => {
    await database.close();
    logger.info("stopped");
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.once("SIGTERM", () => shutdown("SIGTERM"));
process.once("SIGINT", () => shutdown("SIGINT"));

async function startDatabase(config: Config): Promise<Database> {
  try {
    logger.info(await migrateDatabase(config.databaseUrl));
    const database = await openDatabase({ url: config.databaseUrl, poolSize: config.databasePoolSize });
    if (config.seed) {
      const added = await seedPets(database.pets);
      if (added > 0) logger.info({ added }, "seeded demo pets");
    }
    return database;
  } catch (error) {
    logger.fatal({ err: error }, "cannot start: the database could not be migrated or opened");
    process.exit(1);
  }
}
