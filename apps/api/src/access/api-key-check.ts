import { ISSUED_KEY_PREFIX, ISSUED_KEY_SECRET, KEY_PREFIX_LENGTH, OPERATION_SCOPES, scopeCovers, type OperationName, type Scope } from "@petstore/contract";
import type { Request, RequestHandler, Response, NextFunction } from "express";
import { HttpError } from "../base/http-error.js";
import { bearerToken, secretDigest, secretMatcher } from "./bearer.js";
import { setCaller, setRefusedKeyPrefix, type Caller } from "./caller.js";
import { rateLimited, refuseCredential } from "./credential-failures.js";
import type { IssuedKeys } from "./issued-keys.js";
import type { RecordKeyUse } from "./key-use.js";
import type { ActiveKey } from "./access-repository.js";
import { unlimited, type LimitName, type RequestLimiter } from "./rate-limit.js";
import { RateLimitFields } from "./rate-limit-headers.js";

export interface ApiKeyCheckOptions {
  apiKeys: readonly string[];
  /** Counts missing or invalid keys per client address; over its limit the address's further failures get 429. */
  authFailures: RequestLimiter;
  /** Counts requests per API key (by the caller's storeKey: `configured-N`, `key-<id>`). */
  requestsPerKey: RequestLimiter;
  /** Called for each 429, with the limit that refused (a metric's hook). */
  onRejected?: (limit: LimitName) => void;
  /** The keys issued at run time (staff access); without them only API_KEYS open the API. */
  issuedKeys?: IssuedKeys | undefined;
  /** Records an issued key's use (throttled); required with issuedKeys. */
  recordKeyUse?: RecordKeyUse | undefined;
  /**
   * The contract operation the request names, matched once at the top of the app (the HTTP layer's
   * `matchedRoute`); undefined for an unknown path or method, which needs no scope (a 404 or 405).
   */
  operationOf: (res: Response) => RequestedOperation | undefined;
}

/** What the scope check and the key-use record need of the operation a request names. */
export interface RequestedOperation {
  operation: string;
  /** Set on a deprecated operation (its use is recorded as `lastDeprecatedUseAt`). */
  deprecation?: unknown;
}

/** The 403 of a valid key whose scope does not cover the operation (RFC 6750 section 3.1). */
function insufficientScope(caller: Caller, operation: string, needed: Scope): HttpError {
  return new HttpError(
    403,
    "FORBIDDEN",
    `This API key has scope ${caller.scope}; ${operation} needs a key with scope ${needed}.`,
    { "WWW-Authenticate": `Bearer realm="petstore", error="insufficient_scope", scope="${needed}"` },
  );
}

/**
 * Bearer check for the whole API (`/v1` and `/admin/v1`). The key is never
 * echoed nor logged. Configured keys (API_KEYS) are compared in constant time,
 * as digests; an issued key (`psk_...`) is found by its SHA-256 in the
 * in-process set (issued-keys.ts): no database read per request. A valid key
 * is never refused for failures from its address: behind a shared proxy or
 * NAT, someone else's guessing must not lock a real client out.
 */
export function requireApiKey({
  apiKeys,
  authFailures,
  requestsPerKey,
  onRejected,
  issuedKeys,
  recordKeyUse,
  operationOf,
}: ApiKeyCheckOptions): RequestHandler {
  const matchKey = secretMatcher(apiKeys);
  const perKey = new RateLimitFields("per-key", requestsPerKey);
  // Made once. Counters and records are keyed by the caller, never a secret or its digest: a dump of Redis
  // or the database gives nothing to crack a weak configured key offline with.
  const configured: Caller[] = apiKeys.map((_key, index) => {
    const keyId = `configured-${index + 1}`;
    const name = `Configured key ${index + 1}`;
    return {
      storeKey: keyId,
      keyId,
      name,
      scope: "admin",
      expiresAt: null,
      issuedKeyId: undefined,
      actor: { keyId, name },
    };
  });
  const issuedCallers = new WeakMap<ActiveKey, Caller>();
  const issuedCaller = (key: ActiveKey): Caller => {
    let found = issuedCallers.get(key);
    if (!found) {
      const keyId = String(key.id);
      found = { storeKey: `key-${keyId}`, keyId, name: key.name, scope: key.scope, expiresAt: key.expiresAt, issuedKeyId: key.id, actor: { keyId, name: key.name } };
      issuedCallers.set(key, found);
    }
    return found;
  };

  /** The 403 of an operation the caller's scope does not cover, else undefined (and the key's use is recorded). */
  const scopeRefusal = (caller: Caller, res: Response): HttpError | undefined => {
    // A configured key is admin, which covers everything. An issued key's operation is the one matched at the
    // top of the app, from the whole target, as the router will route it; an unknown path or method needs no
    // scope: it is a 404 or 405.
    if (caller.issuedKeyId === undefined) return undefined;
    const route = operationOf(res);
    if (!route) return undefined;
    // Fails closed: an operation missing from the table (a wiring fault; access-api.test.ts checks every route
    // against it) needs admin rather than nothing.
    const needed = (OPERATION_SCOPES[route.operation as OperationName] as Scope | undefined) ?? "admin";
    if (!scopeCovers(caller.scope, needed)) return insufficientScope(caller, route.operation, needed);
    recordKeyUse?.(caller.issuedKeyId, "lastUsedAt");
    if (route.deprecation) recordKeyUse?.(caller.issuedKeyId, "lastDeprecatedUseAt");
    return undefined;
  };

  const admit = (caller: Caller, res: Response, next: NextFunction) => {
    setCaller(res, caller);
    const refusal = scopeRefusal(caller, res);
    if (requestsPerKey === unlimited) return next(refusal); // the hot path skips a promise when nothing is counted
    // A 403 is counted like any request: probing operations beyond the key's scope is not free.
    requestsPerKey.count(caller.storeKey).then((count) => {
      // Every answer to a counted request, a 403 too, says what is left, so a client can slow down before a 429.
      perKey.set(res, count);
      if (count.allowed) return next(refusal);
      onRejected?.("requests_per_key");
      next(rateLimited(count.resetSeconds, "Too many requests for this API key"));
    }, next);
  };

  const refuse = (req: Request, res: Response, next: NextFunction, header: string | undefined, token: string | undefined) => {
    // An issued key's prefix is shown in key lists: the log line may name it, so a revoked key still in use can be found.
    if (token !== undefined && ISSUED_KEY_SECRET.test(token)) setRefusedKeyPrefix(res, token.slice(0, KEY_PREFIX_LENGTH));
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

  return (req, res, next) => {
    const header = req.headers.authorization;
    const token = bearerToken(header);
    if (token === undefined) return refuse(req, res, next, header, token);
    const tokenDigest = secretDigest(token);
    const keyIndex = matchKey(tokenDigest);
    if (keyIndex !== -1) return admit(configured[keyIndex] as Caller, res, next);
    if (!issuedKeys || !token.startsWith(ISSUED_KEY_PREFIX)) return refuse(req, res, next, header, token);
    const digest = tokenDigest.toString("hex");
    const checkIssued = () => {
      const key = issuedKeys.find(digest);
      if (key) admit(issuedCaller(key), res, next);
      else refuse(req, res, next, header, token);
    };
    const pending = issuedKeys.whenFresh();
    if (!pending) return checkIssued();
    pending
      .then(checkIssued, (error: unknown) => {
        // The set is too old to trust and could not be read: a key it holds may have been revoked since (503);
        // one it does not hold is refused as it would be anyway.
        if (issuedKeys.find(digest)) next(error);
        else refuse(req, res, next, header, token);
      })
      // Express catches what the synchronous branch throws (operationOf where the route match never ran: a
      // wiring fault); here it would be an unhandled rejection and a request left hanging.
      .catch(next);
  };
}
