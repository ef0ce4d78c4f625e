import { createApp } from "./app.js";
import { DatabaseStartError, startDatabase } from "./start-database.js";
import { ConfigError, loadDotEnvFile, readConfig, type Config } from "./base/env.js";
import { createHttpServer } from "./http/http-server.js";
import { responseHeaderSets } from "./http/security-headers.js";
import { createLogger } from "./ops/logger.js";
import { createStopSwitch, exitGracefullyOnSignals } from "./ops/shutdown.js";

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
const database = await startDatabase(config, logger).catch((error: unknown) => {
  if (!(error instanceof DatabaseStartError)) throw error;
  logger.fatal(error.message);
  process.exit(1);
});
const stopSwitch = createStopSwitch();
const app = createApp({ config, logger, database, stopState: stopSwitch });
logger.info(
  config.webDistDir
    ? `serving the admin app from ${config.webDistDir}`
    : "no admin app build (WEB_DIST_DIR unset, apps/web/dist not built): serving the API only",
);

const server = createHttpServer(app, {
  requestTimeoutMs: config.requestTimeoutMs,
  headersTimeoutMs: config.headersTimeoutMs,
  keepAliveTimeoutMs: config.keepAliveTimeoutMs,
  jsonHeaders: responseHeaderSets({ production: config.nodeEnv === "production" }).api,
});
exitGracefullyOnSignals({
  server,
  logger,
  stopSwitch,
  drainMs: config.shutdownDrainMs,
  timeoutMs: config.shutdownTimeoutMs,
  onClosed: () => database.close(),
});
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info({ port, database: database.provider }, `petstore API listening on http://${config.host}:${port}`);
  // A supervising parent with an IPC channel (the tests) learns the port, so it can pass PORT=0 instead of racing for a free one.
  process.send?.({ listening: port });
});
