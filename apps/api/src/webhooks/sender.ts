import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { WebhookEventType } from "../activity/event-types.js";
import { DestinationRefused, resolveDestination, type DestinationRules } from "./destination.js";
import { post, type PostResult } from "./post.js";
import { signatureHeader } from "./signature.js";
import {
  FAN_OUT_BATCH,
  type ClaimedDelivery,
  type DeliveryOutcome,
  type WebhookEndpointRecord,
  type WebhookRepository,
} from "./webhook-repository.js";

/** An endpoint with nothing but failures for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;
/** How much each retry's wait is moved, either way, at random: ±10 %. */
const JITTER = 0.1;
/** How many deliveries one process sends at once. */
const CONCURRENCY = 16;

export interface WebhookSenderOptions extends DestinationRules {
  repository: WebhookRepository;
  logger: Logger;
  /** WEBHOOK_TIMEOUT_MS: a 2xx must come within this. */
  timeoutMs: number;
  /** WEBHOOK_RETRY_SCHEDULE: the wait before each retry, in ms; past the last, the delivery has failed. */
  retryScheduleMs: readonly number[];
  /** How often to look for due deliveries. */
  pollMs: number;
  /** WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: one endpoint's sends at once in this process, so a slow one holds no more than its share. */
  maxInFlightPerEndpoint: number;
  /** Told of each finished delivery and each attempt (the metrics). */
  onDelivered?: (outcome: "succeeded" | "failed" | "retrying") => void;
  onAttempt?: (statusClass: string) => void;
  /** True once the process began to stop (ops/shutdown.ts): from then on nothing more is claimed. */
  isStopping?: () => boolean;
  now?: () => Date;
  random?: () => number;
}

export interface WebhookSender {
  /** Starts looking for due deliveries every pollMs. */
  start(): void;
  /** Looks now (after a test event or a resend made here). */
  poke(): void;
  /**
   * Claims nothing more; sends in flight are cut and their leases given back unsent (due again for
   * any process at once). Resolves once nothing is held.
   */
  stop(): Promise<void>;
}

/** The status class an attempt is counted under: `2xx`..`5xx`, or `error` (no answer). */
export const statusClass = (statusCode: number | null): string =>
  statusCode === null ? "error" : `${Math.floor(statusCode / 100)}xx`;

/**
 * The sender every API process runs: fans the event log's new events out to deliveries, claims due ones
 * with a lease, sends each outside any transaction, and records what came of it
 * (docs/decisions/023-webhooks.md). Never on a request's path.
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const {
    repository,
    logger,
    timeoutMs,
    retryScheduleMs,
    pollMs,
    now = () => new Date(),
    random = Math.random,
  } = options;
  const inFlight = new Map<number, { delivery: ClaimedDelivery; abort: AbortController; done: Promise<void> }>();
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;
  let polling: Promise<void> | undefined;
  let pokedWhilePolling = false;
  let lastEndpoint = 0;

  const schedule = () => {
    if (stopping) return;
    clearTimeout(timer);
    timer = setTimeout(poll, pollMs);
    timer.unref();
  };

  function poll(): void {
    if (stopping) return;
    if (polling) {
      pokedWhilePolling = true;
      return;
    }
    polling = claimAndSend()
      .catch((error: unknown) => logger.warn({ err: error }, "webhooks: claiming due deliveries failed; trying again"))
      .finally(() => {
        polling = undefined;
        if (pokedWhilePolling) {
          pokedWhilePolling = false;
          poll();
        } else schedule();
      });
  }

  async function claimAndSend(): Promise<void> {
    if (options.isStopping?.()) return;
    // A rotation's old secret is kept no longer than its overlap (docs/security.md).
    await repository.eraseEndedSecrets(now());
    const room = CONCURRENCY - inFlight.size;
    if (room <= 0) return;
    // The log's events become deliveries here, off every request's path (docs/decisions/023, 053).
    await repository.fanOut(FAN_OUT_BATCH);
    const claimedAt = now();
    // The lease outlasts the send and its recording; a process that dies holding it lets it run out.
    const leaseUntil = new Date(claimedAt.getTime() + timeoutMs + 30_000);
    const byEndpoint = new Map<number, number>();
    for (const { delivery } of inFlight.values())
      byEndpoint.set(delivery.webhookId, (byEndpoint.get(delivery.webhookId) ?? 0) + 1);
    const claimed = await repository.claimDue(claimedAt, leaseUntil, randomUUID(), room, {
      perEndpoint: options.maxInFlightPerEndpoint,
      inFlight: byEndpoint,
      lastEndpoint,
    });
    lastEndpoint = claimed.at(-1)?.webhookId ?? lastEndpoint;
    for (const delivery of claimed) {
      const abort = new AbortController();
      const done = deliver(delivery, abort.signal)
        .catch((error: unknown) =>
          logger.error({ err: error, deliveryId: delivery.id }, "webhooks: recording a delivery failed"),
        )
        .finally(() => {
          inFlight.delete(delivery.id);
          // A slot is free: an endpoint held back by its share, or by the process's, need not wait for the next look.
          if (!stopping) poll();
        });
      inFlight.set(delivery.id, { delivery, abort, done });
    }
  }

  async function deliver(delivery: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const endpoint = await repository.findEndpoint(delivery.webhookId);
    if (!endpoint || !endpoint.enabled) {
      // Not sent: the endpoint is disabled (or was deleted meanwhile). Resending it after enabling sends it.
      await repository.recordOutcome(delivery, {
        attempt: null,
        status: "failed",
        nextAttemptAt: now(),
        endpoint: null,
      });
      options.onDelivered?.("failed");
      return;
    }
    const result = await attempt(delivery, endpoint, signal);
    if (signal.aborted) {
      await repository.release(delivery);
      return;
    }
    const at = now();
    options.onAttempt?.(statusClass(result.statusCode));
    const outcome = decide(delivery, endpoint, result, at);
    await repository.recordOutcome(delivery, outcome);
    options.onDelivered?.(outcome.status === "pending" ? "retrying" : outcome.status);
    if (outcome.endpoint?.disable)
      logger.warn({ webhookId: endpoint.id, reason: outcome.endpoint.disable }, "webhooks: endpoint disabled");
  }

  async function attempt(
    delivery: ClaimedDelivery,
    endpoint: WebhookEndpointRecord,
    signal: AbortSignal,
  ): Promise<PostResult & { at: Date }> {
    const at = now();
    const started = performance.now();
    try {
      // Resolved and checked at every send, then connected to the checked address: DNS rebinding gains nothing.
      const destination = await resolveDestination(endpoint.url, options);
      const body = eventBody(delivery.eventType, delivery.createdAt, delivery.data);
      const seconds = Math.floor(at.getTime() / 1000);
      const secrets = [endpoint.secret];
      if (endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > at)
        secrets.push(endpoint.previousSecret);
      const headers = {
        "content-type": "application/json",
        "user-agent": "petstore-webhooks/1",
        "webhook-id": delivery.eventId,
        "webhook-timestamp": String(seconds),
        "webhook-signature": signatureHeader(secrets, delivery.eventId, seconds, body),
      };
      return { ...(await post(destination, headers, body, timeoutMs, signal)), at };
    } catch (error) {
      if (!(error instanceof DestinationRefused)) throw error;
      return {
        statusCode: null,
        error: `Not sent: ${error.message}.`,
        durationMs: Math.round(performance.now() - started),
        answer: "",
        at,
      };
    }
  }

  function decide(
    delivery: ClaimedDelivery,
    endpoint: WebhookEndpointRecord,
    result: PostResult & { at: Date },
    at: Date,
  ): DeliveryOutcome {
    const record = {
      at: result.at.toISOString(),
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
      answer: result.answer,
    };
    const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    if (succeeded)
      return { attempt: record, status: "succeeded", nextAttemptAt: at, endpoint: { succeeded: true, at } };
    if (result.statusCode === 410) {
      const disable = `The endpoint answered 410 Gone at ${at.toISOString()}.`;
      return { attempt: record, status: "failed", nextAttemptAt: at, endpoint: { succeeded: false, at, disable } };
    }
    const failingSince = endpoint.failingSince ?? at;
    const disable =
      at.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS
        ? `Nothing but failures since ${failingSince.toISOString()} (5 days).`
        : undefined;
    const wait = retryScheduleMs[delivery.attemptCount];
    if (wait === undefined || disable) {
      return {
        attempt: record,
        status: "failed",
        nextAttemptAt: at,
        endpoint: { succeeded: false, at, ...(disable ? { disable } : {}) },
      };
    }
    const jittered = wait * (1 + JITTER * (2 * random() - 1));
    return {
      attempt: record,
      status: "pending",
      nextAttemptAt: new Date(at.getTime() + jittered),
      endpoint: { succeeded: false, at },
    };
  }

  return {
    start() {
      stopping = false;
      schedule();
    },
    poke() {
      if (!stopping) poll();
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await polling;
      for (const { abort } of inFlight.values()) abort.abort();
      await Promise.all([...inFlight.values()].map(({ done }) => done));
    },
  };
}

/** The body sent: `{ type, timestamp, data }`, the same bytes on every attempt. */
export const eventBody = (type: WebhookEventType, createdAt: Date, data: string): string =>
  JSON.stringify({ type, timestamp: createdAt.toISOString(), data: JSON.parse(data) as unknown });
