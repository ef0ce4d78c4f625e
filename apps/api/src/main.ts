import { createApp, createAppEventStreams } from "./app.js";
import { DatabaseStartError, startDatabase } from "./start-database.js";
import { ConfigError, loadDotEnvFile, readConfig, type Config } from "./base/env.js";
import { createHttpServer } from "./http/http-server.js";
import { responseHeaderSets } from "./http/security-headers.js";
import { createLogger } from "./ops/logger.js";
import { createStopSwitch, exitGracefullyOnSignals } from "./ops/shutdown.js";
import { createMetrics } from "./ops/metrics.js";
import { createWebhookSender } from "./webhooks/sender.js";
import { startCountFolding } from "./maintenance/count-folding.js";
import { startHeartbeat } from "./maintenance/heartbeat.js";
import { startBackupSchedule, startRetentionSchedule } from "./maintenance/schedules.js";
import { backupInChildProcess } from "./maintenance/backup-process.js";

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
const eventStreams = createAppEventStreams(config, database, logger);
const metrics = createMetrics({
  database,
  stopState: stopSwitch,
  enabled: config.metricsToken !== undefined,
  webhooks: database.webhooks,
  eventStreams,
});
// Every replica sends webhooks: it claims due deliveries with a lease, so each is sent by one process at a time.
const webhookSender = createWebhookSender({
  repository: database.webhooks,
  logger,
  ...config.webhooks,
  onDelivered: metrics.webhookDelivered,
  onAttempt: metrics.webhookAttempt,
  // The drain: nothing new is claimed from the signal on; what is in flight finishes (or is given back at the close).
  isStopping: () => stopSwitch.stopping,
});
const app = createApp({ config, logger, database, stopState: stopSwitch, metrics, webhookSender, eventStreams });
logger.info(
  config.webDistDir
    ? `serving the admin app from ${config.webDistDir}`
    : "no admin app build (WEB_DIST_DIR unset, apps/web/dist not built): serving the API only",
);
logger.info(
  config.adminOrigin
    ? `staff sign-in for the admin app at ${config.adminOrigin} (ADMIN_ORIGIN)`
    : "ADMIN_ORIGIN unset: passkeys, invitations and single sign-on are off; the API key sign-in stays, and the session token is given to the request's own origin",
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
  // Open event streams end (with retry:) as the drain ends, before the listener closes: their clients
  // reconnect through the balancer to a ready replica, from their Last-Event-ID.
  onDrainEnd: () => eventStreams.endAll("shutdown"),
  // What the sender holds is sent by then or given back unsent, before the database closes.
  onClosed: () =>
    Promise.all([
      webhookSender.stop(),
      upkeep.retention?.stop(),
      upkeep.backups?.stop(),
      upkeep.heartbeat?.stop(),
      upkeep.countFolding?.stop(),
    ]).then(() => database.close()),
});
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info({ port, database: database.provider }, `petstore API listening on http://${config.host}:${port}`);
  // A supervising parent with an IPC channel (the tests) learns the port, so it can pass PORT=0 instead of racing for a free one.
  process.send?.({ listening: port });
  webhookSender.start();
  startUpkeep();
});

// The API's own upkeep (docs/operations.md): a heartbeat that tells `restore` this database is served,
// the daily retention purge, scheduled backups when BACKUP_EVERY is set, and on PostgreSQL the fold of the
// pets' count deltas every second; one replica at a time runs each job.
const upkeep: Partial<Record<"heartbeat" | "retention" | "backups" | "countFolding", { stop(): Promise<void> }>> = {};
function startUpkeep() {
  const heartbeat = startHeartbeat(database.sql);
  upkeep.heartbeat = heartbeat;
  upkeep.countFolding = startCountFolding(database.sql);
  upkeep.retention = startRetentionSchedule({
    runner: database.sql,
    settings: { ...config.operations.retention, idempotencyMs: config.idempotencyTtlMs },
    holder: heartbeat.id,
    logger,
    onPurged: metrics.retentionPurged,
  });
  const { everyMs, dir, keep, scratchDatabaseUrl } = config.operations.backups;
  if (everyMs === undefined) return;
  logger.info(`backups every ${everyMs / 1000} s to ${dir}, keeping the newest ${keep} verified`);
  upkeep.backups = startBackupSchedule({
    runner: database.sql,
    everyMs,
    holder: heartbeat.id,
    logger,
    takeBackup: backupInChildProcess({ dir, keep, databaseUrl: config.databaseUrl, scratchDatabaseUrl }),
    onSucceeded: metrics.backupSucceeded,
    onFailed: metrics.backupFailed,
  });
}
