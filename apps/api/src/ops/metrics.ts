import type { Response } from "express";
import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";
import { matchedRoute } from "../http/matched-route.js";
import type { DatabaseHealth } from "../data/database-health.js";
import { STORAGE_FAULT_CAUSES, type StorageFaultCause } from "../data/database-unavailable.js";
import type { LimitName } from "../access/rate-limit.js";
import type { WebhookRepository } from "../webhooks/webhook-repository.js";
import { NEVER_STOPPING, type StopState } from "./shutdown.js";
import { ResponseTallies } from "./response-tallies.js";
import { RETENTION_KINDS, type RetentionKind } from "../maintenance/retention.js";

/** The abuse limits whose 429s are counted (see access/api-key-check.ts, passkeys/passkeys-router.ts, sso/sso-router.ts, staff/sessions.ts). */
const LIMIT_NAMES: readonly LimitName[] = ["requests_per_key", "auth_failures", "sign_in_starts", "session_tokens"];

/** The operation label of every request no contract operation serves (unknown paths, other methods, probes). */
const UNMATCHED = "unmatched";

/** What is told of every finished response (a response the client abandoned is not): its time in seconds. */
export type ResponseObserver = (res: Response, seconds: number) => void;

/** Sub-millisecond answers are the norm here; the default buckets start at 5 ms. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface Metrics {
  /** This app's own registry: tests build many apps in one process, so nothing goes in prom-client's global one. */
  readonly registry: Registry;
  /**
   * Counts and times a finished response by contract operation (matched at the top, `matchRoutes`,
   * so a 401 is labelled too) and status; undefined when metrics are off. Called from the request
   * log's one end-of-response listener (ops/request-logging.ts), not a listener of its own.
   */
  observeResponse: ResponseObserver | undefined;
  /** A request refused with 429 by an abuse limit. */
  limitRejected(limit: LimitName): void;
  /** A limit count was taken in this process because the shared (Redis) store did not answer. */
  limiterStoreFellBack(): void;
  /** A request answered 503 because the database could not serve it (http/errors.ts). */
  storageFault(cause: StorageFaultCause): void;
  /** A webhook delivery finished (succeeded, failed for good) or is to be retried. */
  webhookDelivered(outcome: "succeeded" | "failed" | "retrying"): void;
  /** A webhook attempt got an answer of this status class (`2xx`..`5xx`), or none (`error`). */
  webhookAttempt(statusClass: string): void;
  /** A scheduled backup was taken and verified: its size, and when it finished. */
  backupSucceeded(bytes: number, at: Date): void;
  /** A scheduled backup failed, or could not be verified. */
  backupFailed(): void;
  /** The retention purge deleted rows of a kind. */
  retentionPurged(kind: RetentionKind, count: number): void;
}

export interface MetricsOptions {
  database: Pick<DatabaseHealth, "isReady" | "poolStats" | "groupCommits">;
  /** Read at scrape time for `petstore_shutting_down`; never stopping when not given. */
  stopState?: StopState;
  /**
   * Off when nothing can scrape them (no METRICS_TOKEN): requests are not
   * observed and the process collectors are not started; each of those runs
   * for the life of the process once started, however many apps are built.
   */
  enabled: boolean;
  /** Read at scrape time for the age of the oldest pending webhook delivery. */
  webhooks?: Pick<WebhookRepository, "oldestPendingAt">;
  /** Read at scrape time for `petstore_event_streams_open`. */
  eventStreams?: { readonly openCount: number };
}

export function createMetrics({
  database,
  stopState = NEVER_STOPPING,
  enabled,
  webhooks,
  eventStreams,
}: MetricsOptions): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (enabled) collectDefaultMetrics({ register: registry });

  // Label values come from closed sets only (operations, limit names, status codes): never the raw path.
  // Every response touches these two: tallied in plain numbers, read as a Counter and a Histogram (response-tallies.ts).
  const responses = new ResponseTallies({
    countName: "http_requests_total",
    countHelp: "HTTP responses sent, by contract operation and status code.",
    durationName: "http_request_duration_seconds",
    durationHelp: "Time from receiving a request to finishing its response, by contract operation and status code.",
    buckets: DURATION_BUCKETS,
    registers,
  });
  const limitRejections = new Counter({
    name: "petstore_limit_rejections_total",
    help: "Requests refused with 429 by an abuse limit.",
    labelNames: ["limit"] as const,
    registers,
  });
  for (const limit of LIMIT_NAMES) limitRejections.inc({ limit }, 0); // present at 0, so rate() works from the start
  const storeFallbacks = new Counter({
    name: "petstore_limiter_store_fallbacks_total",
    help: "Limit counts taken in this process because the shared (Redis) limiter store did not answer.",
    registers,
  });
  const storageFaults = new Counter({
    name: "petstore_storage_faults_total",
    help: "Requests answered 503 because the database could not serve them, by cause (disk_full, out_of_memory, too_many_connections, ...).",
    labelNames: ["cause"] as const,
    registers,
  });
  for (const cause of STORAGE_FAULT_CAUSES) storageFaults.inc({ cause }, 0);
  new Gauge({
    name: "petstore_database_up",
    help: "1 when the database answers a trivial query at scrape time, else 0.",
    registers,
    async collect() {
      this.set((await database.isReady()) ? 1 : 0);
    },
  });
  if (eventStreams) {
    new Gauge({
      name: "petstore_event_streams_open",
      help: "Event streams (streamEvents) open in this process now.",
      registers,
      collect() {
        this.set(eventStreams.openCount);
      },
    });
  }
  new Gauge({
    name: "petstore_shutting_down",
    help: "1 from a stop signal on (readiness answers 503 while the process drains), else 0.",
    registers,
    collect() {
      this.set(stopState.stopping ? 1 : 0);
    },
  });
  const poolStats = database.poolStats?.bind(database);
  if (poolStats) {
    new Gauge({
      name: "petstore_db_pool_connections",
      help: "PostgreSQL pool: connections in use, idle, and queries waiting for a connection.",
      labelNames: ["state"] as const,
      registers,
      collect() {
        const { inUse, idle, waiting } = poolStats();
        this.set({ state: "in_use" }, inUse);
        this.set({ state: "idle" }, idle);
        this.set({ state: "waiting" }, waiting);
      },
    });
  }
  const groupCommits = database.groupCommits?.bind(database);
  if (groupCommits) {
    // Tallied by the commits themselves (plain numbers), read here at scrape time: nothing on the hot path.
    new Counter({
      name: "petstore_sqlite_group_commits_total",
      help: "SQLite commits of creates committed together (one per turn of the event loop that had creates).",
      registers,
      collect() {
        this.reset();
        this.inc(groupCommits().commits);
      },
    });
    new Counter({
      name: "petstore_sqlite_group_committed_creates_total",
      help: "Creates carried by those commits; divided by petstore_sqlite_group_commits_total, the mean batch.",
      registers,
      collect() {
        this.reset();
        this.inc(groupCommits().writes);
      },
    });
  }

  const webhookDeliveries = new Counter({
    name: "petstore_webhook_deliveries_total",
    help: "Webhook deliveries by outcome: succeeded, failed (for good), retrying (an attempt failed, another is scheduled).",
    labelNames: ["outcome"] as const,
    registers,
  });
  for (const outcome of ["succeeded", "failed", "retrying"]) webhookDeliveries.inc({ outcome }, 0);
  const webhookAttempts = new Counter({
    name: "petstore_webhook_attempts_total",
    help: "Webhook attempts by the endpoint's status class (2xx..5xx), or error (no answer: network, timeout, refused address).",
    labelNames: ["status_class"] as const,
    registers,
  });
  for (const statusClass of ["2xx", "3xx", "4xx", "5xx", "error"])
    webhookAttempts.inc({ status_class: statusClass }, 0);
  if (webhooks) {
    new Gauge({
      name: "petstore_webhook_oldest_pending_seconds",
      help: "Age of the oldest pending webhook delivery at scrape time (0 when none is pending).",
      registers,
      async collect() {
        const oldest = await webhooks.oldestPendingAt().catch(() => null);
        this.set(oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0);
      },
    });
  }

  // Scheduled backups (docs/operations.md): alert when the last success is older than two intervals.
  const backupLastSuccess = new Gauge({
    name: "petstore_backup_last_success_timestamp_seconds",
    help: "When this process last took a verified backup (Unix seconds); 0 until it has.",
    registers,
  });
  const backupFailures = new Counter({
    name: "petstore_backup_failures_total",
    help: "Scheduled backups that failed or could not be verified (each also logs one error line naming the cause).",
    registers,
  });
  const backupBytes = new Gauge({
    name: "petstore_backup_bytes",
    help: "Size of the last verified backup this process took, in bytes.",
    registers,
  });
  const retentionPurged = new Counter({
    name: "petstore_retention_purged_rows_total",
    help: "Rows the retention purge deleted, by kind (activity, deliveries, events, idempotency, sessions, tokens, challenges, invitations, heartbeats).",
    labelNames: ["kind"] as const,
    registers,
  });
  for (const kind of RETENTION_KINDS) retentionPurged.inc({ kind }, 0);

  const observeResponse: ResponseObserver = (res, seconds) => {
    const operation = matchedRoute(res)?.operation ?? UNMATCHED;
    // A stream lasts as long as its client stays: its time is no request's latency (its end is logged instead).
    if (operation === "streamEvents" && res.statusCode === 200) return;
    responses.observe(operation, res.statusCode, seconds);
  };

  return {
    registry,
    observeResponse: enabled ? observeResponse : undefined,
    limitRejected: (limit) => limitRejections.inc({ limit }),
    limiterStoreFellBack: () => storeFallbacks.inc(),
    storageFault: (cause) => storageFaults.inc({ cause }),
    webhookDelivered: (outcome) => webhookDeliveries.inc({ outcome }),
    webhookAttempt: (statusClass) => webhookAttempts.inc({ status_class: statusClass }),
    backupSucceeded(bytes, at) {
      backupBytes.set(bytes);
      backupLastSuccess.set(at.getTime() / 1000);
    },
    backupFailed: () => backupFailures.inc(),
    retentionPurged: (kind, count) => retentionPurged.inc({ kind }, count),
  };
}
