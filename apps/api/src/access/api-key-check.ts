import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import { HttpError } from "../http-error.js";
import { unlimited, type LimitName, type RequestLimiter } from "./rate-limit.js";

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/**
 * Returns the index of the configured key that `presented` matches, or -1.
 * Keys are compared as SHA-256 digests with timingSafeEqual, and every key is
 * compared, so timing reveals neither the key's content nor its length.
 */
export function createApiKeyMatcher(apiKeys: readonly string[]): (presented: string) => number {
  const digests = apiKeys.map(digest);
  return (presented) => {
    const candidate = digest(presented);
    let match = -1;
    digests.forEach((key, index) => {
      if (timingSafeEqual(key, candidate) && match === -1) match = index;
    });
    return match;
  };
}

const BEARER = /^bearer +([^\s]+) *$/i;

export interface ApiKeyCheckOptions {
  apiKeys: readonly string[];
  /** Counts missing or invalid keys per client address; over its limit the address's further failures get 429. */
  authFailures: RequestLimiter;
  /** Counts requests per API key (by a SHA-256 of the key). */
  requestsPerKey: RequestLimiter;
  /** Called for each 429, with the limit that refused (a metric's hook). */
  onRejected?: (limit: LimitName) => void;
}

/**
 * Bearer check for the whole interface. The key is never echoed nor logged.
 * A valid key is never refused for failures from its address: behind a shared
 * proxy or NAT, someone else's guessing must not lock a real client out.
 */
export function requireApiKey({ apiKeys, authFailures, requestsPerKey, onRejected }: ApiKeyCheckOptions): RequestHandler {
  const matchKey = createApiKeyMatcher(apiKeys);
  // Counter names, computed once: a digest, so neither Redis nor a dump of it holds a key or its position in API_KEYS.
  const counterKeys = apiKeys.map((key) => digest(key).toString("hex"));
  return (req, res, next) => {
    const header = req.headers.authorization;
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    const keyIndex = token === undefined ? -1 : matchKey(token);
    if (keyIndex !== -1) {
      // What is stored per client (idempotency keys) is scoped by the key's digest, never the key.
      res.locals["apiKeyDigest"] = counterKeys[keyIndex];
      if (requestsPerKey === unlimited) return next(); // the hot path skips a promise when nothing is counted
      requestsPerKey.consume(counterKeys[keyIndex] as string).then((decision) => {
        if (decision.allowed) return next();
        onRejected?.("requests_per_key");
        next(rateLimited(decision.retryAfterSeconds, "Too many requests for this API key"));
      }, next);
      return;
    }
    authFailures.consume(req.ip ?? "unknown").then((decision) => {
      if (!decision.allowed) {
        onRejected?.("auth_failures");
        return next(rateLimited(decision.retryAfterSeconds, "Too many requests with a missing or invalid API key from this address"));
      }
      const message = header
        ? token === undefined
          ? "The Authorization header must have the form: Bearer <API_KEY>."
          : "The API key is not valid."
        : "An API key is required: send it as Authorization: Bearer <API_KEY>.";
      next(
        new HttpError(401, "UNAUTHORIZED", message, {
          "WWW-Authenticate": token === undefined ? 'Bearer realm="petstore"' : 'Bearer realm="petstore", error="invalid_token"',
        }),
      );
    }, next);
  };
}

/** The 429 of an abuse limit: the Error body with `Retry-After`. */
export function rateLimited(retryAfterSeconds: number, reason: string): HttpError {
  return new HttpError(429, "RATE_LIMITED", `${reason}; retry after ${retryAfterSeconds} seconds.`, {
    "Retry-After": String(retryAfterSeconds),
  });
}
