import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import { HttpError } from "./errors.js";
import type { FixedWindowLimiter } from "./rate-limit.js";

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
  /** Counts 401s per client address; over its limit the address gets 429. */
  authFailures: FixedWindowLimiter;
  /** Counts requests per API key. */
  requestsPerKey: FixedWindowLimiter;
  /** Told of every 429, by limit (the metrics count them). */
  onRejected?: (limit: "requests_per_key" | "auth_failures") => void;
}

/** Bearer check for the whole interface. The key is never echoed nor logged. */
export function requireApiKey({ apiKeys, authFailures, requestsPerKey, onRejected }: ApiKeyCheckOptions): RequestHandler {
  const matchKey = createApiKeyMatcher(apiKeys);
  return (req, res, next) => {
    const address = req.ip ?? "unknown";
    const blockedFor = authFailures.check(address);
    if (blockedFor > 0) {
      onRejected?.("auth_failures");
      return next(rateLimited(blockedFor, "Too many requests with a missing or invalid API key from this address"));
    }
    const header = req.headers.authorization;
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    const keyIndex = token === undefined ? -1 : matchKey(token);
    if (keyIndex === -1) {
      authFailures.hit(address);
      const message = header
        ? token === undefined
          ? "The Authorization header must have the form: Bearer <API_KEY>."
          : "The API key is not valid."
        : "An API key is required: send it as Authorization: Bearer <API_KEY>.";
      return next(
        new HttpError(401, "UNAUTHORIZED", message, {
          "WWW-Authenticate": token === undefined ? 'Bearer realm="petstore"' : 'Bearer realm="petstore", error="invalid_token"',
        }),
      );
    }
    const retryAfter = requestsPerKey.hit(String(keyIndex));
    if (retryAfter > 0) {
      onRejected?.("requests_per_key");
      return next(rateLimited(retryAfter, "Too many requests for this API key"));
    }
    // What is stored per client (idempotency keys) is scoped by the key's digest, never the key.
    res.locals["apiKeyDigest"] = digest(token!).toString("hex");
    next();
  };
}

function rateLimited(retryAfterSeconds: number, reason: string): HttpError {
  return new HttpError(429, "RATE_LIMITED", `${reason}; retry after ${retryAfterSeconds} seconds.`, {
    "Retry-After": String(retryAfterSeconds),
  });
}
