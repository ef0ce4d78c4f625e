import { isIP } from "node:net";
import { Redis } from "ioredis";
import ipaddr from "ipaddr.js";
import type { Logger } from "pino";
import type { Config } from "../base/env.js";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

/** The abuse limits, as a metric would label them. */
export type LimitName = "requests_per_key" | "auth_failures" | "sign_in_starts" | "session_tokens";

export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** One count and what is left after it: what the `RateLimit` header field reports. */
export interface LimitCount {
  allowed: boolean;
  /** Events the key may still spend in this window (0 once refused). */
  remaining: number;
  /** Seconds until the window ends and the budget is whole again (at least 1 when refused: the `Retry-After`). */
  resetSeconds: number;
}

/** Counts events per key in one-minute windows and says whether one more is allowed. */
export interface RequestLimiter {
  /** The budget of a key per window; 0: nothing is counted. */
  readonly quota: number;
  readonly windowSeconds: number;
  /** Counts one event for `key`; refuses it once the key's budget for this minute is spent. Never rejects. */
  consume(key: string): Promise<LimitDecision>;
  /** As `consume`, and says what is left of the key's budget. Never rejects. */
  count(key: string): Promise<LimitCount>;
  /**
   * As `count`, answered at once: set where the counter lives in this process (the hot path then
   * spends no promise on it), absent where a count is a round trip (Redis).
   */
  countNow?(key: string): LimitCount;
  /**
   * Gives one event of `key` back (an event counted before the work it bounds, which turned out not
   * to be what the budget counts: a sign-in that completed). Never rejects; best effort.
   */
  refund(key: string): Promise<void>;
}

const WINDOW_SECONDS = 60;
const ALLOWED: LimitDecision = { allowed: true };
const ALLOWED_NOW = Promise.resolve(ALLOWED);

/** A limit of 0: nothing is counted, everything is allowed. */
export const unlimited: RequestLimiter = {
  quota: 0,
  windowSeconds: WINDOW_SECONDS,
  consume: () => ALLOWED_NOW,
  count: () => Promise.resolve({ allowed: true, remaining: Number.MAX_SAFE_INTEGER, resetSeconds: 0 }),
  countNow: () => ({ allowed: true, remaining: Number.MAX_SAFE_INTEGER, resetSeconds: 0 }),
  refund: () => Promise.resolve(),
};

/** What rate-limiter-flexible answered (resolved or rejected with), as a count. */
const countOf = (result: RateLimiterRes, allowed: boolean): LimitCount => ({
  allowed,
  remaining: allowed ? result.remainingPoints : 0,
  resetSeconds: allowed
    ? Math.max(0, Math.ceil(result.msBeforeNext / 1000))
    : Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
});

const toDecision = (count: LimitCount): LimitDecision =>
  count.allowed ? ALLOWED : { allowed: false, retryAfterSeconds: count.resetSeconds };

/** A limiter whose `consume` is its `count` without the numbers. */
function limiter(
  quota: number,
  count: (key: string) => Promise<LimitCount>,
  refund: (key: string) => Promise<void>,
): RequestLimiter {
  return { quota, windowSeconds: WINDOW_SECONDS, count, consume: (key) => count(key).then(toDecision), refund };
}

/**
 * The counter key of a client address: an IPv4 address as it is; an IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.7`, what a dual-stack socket reports for an IPv4 client) as its IPv4 address; any
 * other IPv6 address as its /64 (`2001:db8:1:2::/64`), since one subscriber is given a whole /64
 * and picks addresses in it at will: per address, a /64 would have 2^64 budgets. Anything else
 * (`unknown`) as it is.
 */
export function addressCounterKey(address: string): string {
  if (isIP(address) !== 6) return address;
  let parsed: ipaddr.IPv6;
  try {
    parsed = ipaddr.IPv6.parse(address);
  } catch {
    return address;
  }
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  return `${new ipaddr.IPv6([...parsed.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}

/**
 * A limiter keyed by client address: the one place an address becomes a counter key (every budget
 * per address goes through here: failures, sign-in starts), normalised by addressCounterKey.
 */
function perAddress(limiter: RequestLimiter): RequestLimiter {
  if (limiter === unlimited) return unlimited;
  const { countNow } = limiter;
  return {
    quota: limiter.quota,
    windowSeconds: limiter.windowSeconds,
    consume: (address) => limiter.consume(addressCounterKey(address)),
    count: (address) => limiter.count(addressCounterKey(address)),
    refund: (address) => limiter.refund(addressCounterKey(address)),
    ...(countNow ? { countNow: (address: string) => countNow(addressCounterKey(address)) } : {}),
  };
}

interface CountWindow {
  events: number;
  /** When the window ends (ms since the epoch). */
  endsAt: number;
}

/**
 * Events per key in fixed windows, each starting at the key's first event (as rate-limiter-flexible's
 * RateLimiterMemory counts), answered synchronously: RateLimiterMemory answers only through a promise,
 * three promises and their microtasks per request on the hot path for a map lookup and an addition.
 * Ended windows are swept once per window length, so the map holds the keys of the last two windows at most.
 */
export class InProcessWindows {
  private readonly windows = new Map<string, CountWindow>();
  private readonly windowMs: number;
  private nextSweep: number;

  constructor(
    private readonly quota: number,
    windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.windowMs = windowSeconds * 1000;
    this.nextSweep = now() + this.windowMs;
  }

  count(key: string): LimitCount {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now);
    let window = this.windows.get(key);
    if (window === undefined || window.endsAt <= now) {
      window = { events: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.events += 1;
    const allowed = window.events <= this.quota;
    const seconds = Math.ceil((window.endsAt - now) / 1000);
    return {
      allowed,
      remaining: allowed ? this.quota - window.events : 0,
      resetSeconds: allowed ? Math.max(0, seconds) : Math.max(1, seconds),
    };
  }

  /** Gives one event of the key's current window back (none below 0; an ended window is left alone). */
  refund(key: string): void {
    const window = this.windows.get(key);
    if (window !== undefined && window.endsAt > this.now() && window.events > 0) window.events -= 1;
  }

  /** How many keys are held (tests: the sweep bounds it). */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    this.nextSweep = now + this.windowMs;
  }
}

/** Counts in this process: replicas each count their own. */
export function memoryLimiter(perMinute: number): RequestLimiter {
  if (perMinute === 0) return unlimited;
  const windows = new InProcessWindows(perMinute, WINDOW_SECONDS);
  const countNow = (key: string) => windows.count(key);
  const refund = (key: string) => Promise.resolve(windows.refund(key));
  return { ...limiter(perMinute, (key) => Promise.resolve(countNow(key)), refund), countNow };
}

/**
 * The Redis connection the shared counters use, and whether it answers.
 * Logs one warning when it stops answering and one line when it is back, however
 * many requests fall back in between.
 */
class SharedCounterStore {
  readonly client: Redis;
  private down = false;
  private closing = false;

  constructor(
    url: string,
    private readonly logger: Logger,
    private readonly onStoreFallback?: () => void,
  ) {
    this.client = new Redis(url, {
      // A request must never wait on a dead Redis: while disconnected, commands fail at once
      // (and count in-process), and a Redis that accepts but does not answer times out fast.
      enableOfflineQueue: false,
      commandTimeout: 500,
      connectTimeout: 2_000,
      maxRetriesPerRequest: 0,
      // Keep reconnecting for as long as the process lives; shared counting resumes by itself.
      retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    });
    this.client.on("error", (error: Error) => this.markDown(error));
    this.client.on("ready", () => this.markUp());
  }

  /** A count was taken in this process because Redis did not answer. */
  fellBack(error: unknown): void {
    this.onStoreFallback?.();
    this.markDown(error);
  }

  /** Redis answered a count. */
  answered(): void {
    if (this.down) this.markUp();
  }

  /** Resolves once Redis is connected, or after `timeoutMs` (counting works either way). */
  async whenReady(timeoutMs = 2_000): Promise<void> {
    if (this.client.status === "ready") return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      this.client.once("ready", done);
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    this.client.disconnect();
  }

  private markDown(error: unknown): void {
    if (this.down || this.closing) return;
    this.down = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn(`Redis unreachable (${reason}): abuse limits count in this process until it is back`);
  }

  private markUp(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info("Redis reachable again: abuse limits are shared across replicas again");
  }
}

/**
 * Counts in Redis, so every replica spends one budget; falls back to counting in
 * this process whenever Redis does not answer, and never fails a request for it.
 * (rate-limiter-flexible's insuranceLimiter does the same fallback, but does not
 * tell which store answered; the store's health log and metric need that.)
 */
function redisLimiter(store: SharedCounterStore, keyPrefix: string, perMinute: number): RequestLimiter {
  if (perMinute === 0) return unlimited;
  const shared = new RateLimiterRedis({
    storeClient: store.client,
    keyPrefix,
    points: perMinute,
    duration: WINDOW_SECONDS,
    // Not connected: straight to the in-process count, without trying the socket.
    rejectIfRedisNotReady: true,
  });
  const fallback = new InProcessWindows(perMinute, WINDOW_SECONDS);
  const fromFallback = (key: string) => fallback.count(key);
  const refund = (key: string): Promise<void> =>
    shared.reward(key, 1).then(
      () => store.answered(),
      (error: unknown) => {
        store.fellBack(error);
        fallback.refund(key);
      },
    );
  return limiter(
    perMinute,
    (key) =>
      shared.consume(key).then(
        (result) => {
          store.answered();
          return countOf(result, true);
        },
        (rejection: unknown) => {
          if (rejection instanceof RateLimiterRes) {
            store.answered();
            return countOf(rejection, false);
          }
          store.fellBack(rejection);
          return fromFallback(key);
        },
      ),
    refund,
  );
}

export interface AbuseLimits {
  /** Keyed by the caller (`configured-N`, `key-<id>`: access/caller.ts), never a key or its digest. */
  requestsPerKey: RequestLimiter;
  /** Keyed by client address (an IPv6 client by its /64: addressCounterKey). */
  authFailures: RequestLimiter;
  /**
   * Sign-ins started, keyed by client address (as authFailures): a passkey sign-in's or an invitation's
   * passkey options (each stores a one-time challenge, with no credential yet checked) and single
   * sign-on's start (each seals a new flow, whose callback costs a call to the provider); the same
   * budget per minute as authFailures.
   */
  signInStarts: RequestLimiter;
  /** Session tokens bought per browser session (`session-<id>`): TOKENS_PER_SESSION_PER_MIN. */
  sessionTokens: RequestLimiter;
  /** Resolves once the shared store (if any) is connected, or after a short wait. */
  whenReady(): Promise<void>;
  close(): Promise<void>;
}

export interface AbuseLimitsOptions {
  requestsPerMinute: number;
  authFailuresPerMinute: number;
  /** Session tokens per browser session per minute; 0 or absent: not counted. */
  tokensPerSessionPerMinute?: number;
  /** Set: counters live in Redis and replicas share them. Unset: each process counts its own. */
  redisUrl?: string | undefined;
  /** Namespace of the counters in Redis. */
  keyPrefix?: string;
  logger: Logger;
  /** Called for each count taken in-process because Redis did not answer (a metric's hook). */
  onStoreFallback?: () => void;
}

/** The abuse limits, shared through Redis when `redisUrl` is set. */
export function createAbuseLimits({
  requestsPerMinute,
  authFailuresPerMinute,
  tokensPerSessionPerMinute = 0,
  redisUrl,
  keyPrefix = "petstore",
  logger,
  onStoreFallback,
}: AbuseLimitsOptions): AbuseLimits {
  if (!redisUrl || (requestsPerMinute === 0 && authFailuresPerMinute === 0 && tokensPerSessionPerMinute === 0)) {
    return {
      requestsPerKey: memoryLimiter(requestsPerMinute),
      authFailures: perAddress(memoryLimiter(authFailuresPerMinute)),
      signInStarts: perAddress(memoryLimiter(authFailuresPerMinute)),
      sessionTokens: memoryLimiter(tokensPerSessionPerMinute),
      whenReady: async () => {},
      close: async () => {},
    };
  }
  const store = new SharedCounterStore(redisUrl, logger, onStoreFallback);
  return {
    requestsPerKey: redisLimiter(store, `${keyPrefix}:requests_per_key`, requestsPerMinute),
    authFailures: perAddress(redisLimiter(store, `${keyPrefix}:auth_failures`, authFailuresPerMinute)),
    signInStarts: perAddress(redisLimiter(store, `${keyPrefix}:sign_in_starts`, authFailuresPerMinute)),
    sessionTokens: redisLimiter(store, `${keyPrefix}:session_tokens`, tokensPerSessionPerMinute),
    whenReady: () => store.whenReady(),
    close: () => store.close(),
  };
}

/** The abuse limits the configuration asks for (RATE_LIMIT_PER_MIN, AUTH_FAILURES_PER_MIN, TOKENS_PER_SESSION_PER_MIN, REDIS_URL). */
export function abuseLimitsFromConfig(
  config: Pick<Config, "rateLimitPerMinute" | "authFailuresPerMinute" | "tokensPerSessionPerMinute" | "redisUrl">,
  logger: Logger,
  extra: Pick<AbuseLimitsOptions, "keyPrefix" | "onStoreFallback"> = {},
): AbuseLimits {
  return createAbuseLimits({
    requestsPerMinute: config.rateLimitPerMinute,
    authFailuresPerMinute: config.authFailuresPerMinute,
    tokensPerSessionPerMinute: config.tokensPerSessionPerMinute,
    redisUrl: config.redisUrl,
    logger,
    ...extra,
  });
}
