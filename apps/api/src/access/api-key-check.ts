import type { RequestHandler } from "express";
import { HttpError } from "../http-error.js";
import { bearerToken, secretDigest, secretMatcher } from "./bearer.js";
import { setCallerKeyDigest } from "./caller.js";
import { rateLimited, refuseCredential } from "./credential-failures.js";
import { unlimited, type LimitName, type RequestLimiter } from "./rate-limit.js";
import { RateLimitFields } from "./rate-limit-headers.js";

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
  const matchKey = secretMatcher(apiKeys);
  // Counter names, computed once: a digest, so neither Redis nor a dump of it holds a key or its position in API_KEYS.
  const keyDigests = apiKeys.map((key) => secretDigest(key).toString("hex"));
  const perKey = new RateLimitFields("per-key", requestsPerKey);
  return (req, res, next) => {
    const header = req.headers.authorization;
    const token = bearerToken(header);
    const keyIndex = token === undefined ? -1 : matchKey(token);
    if (keyIndex !== -1) {
      const digest = keyDigests[keyIndex] as string;
      setCallerKeyDigest(res, digest);
      if (requestsPerKey === unlimited) return next(); // the hot path skips a promise when nothing is counted
      requestsPerKey.count(digest).then((count) => {
        // Every answer to a counted request says what is left, so a client can slow down before a 429.
        perKey.set(res, count);
        if (count.allowed) return next();
        onRejected?.("requests_per_key");
        next(rateLimited(count.resetSeconds, "Too many requests for this API key"));
      }, next);
      return;
    }
    refuseCredential({
      authFailures,
      clientAddress: req.ip ?? "unknown",
      onRejected,
      tooManyReason: "Too many requests with a missing or invalid API key from this address",
      unauthorized: () =>
        new HttpError(
          401,
          "UNAUTHORIZED",
          header
            ? token === undefined
              ? "The Authorization header must have the form: Bearer <API_KEY>."
              : "The API key is not valid."
            : "An API key is required: send it as Authorization: Bearer <API_KEY>.",
          { "WWW-Authenticate": token === undefined ? 'Bearer realm="petstore"' : 'Bearer realm="petstore", error="invalid_token"' },
        ),
    }).then(next, next);
  };
}
