import {
  ISSUED_KEY_PREFIX,
  ISSUED_KEY_SECRET,
  KEY_PREFIX_LENGTH,
  OPERATION_CREDENTIALS,
  OPERATION_SCOPES,
  scopeCovers,
  SESSION_TOKEN_PREFIX,
  SESSION_TOKEN_SECRET,
  type AnyOperationName,
  type OperationName,
  type Scope,
} from "@petstore/contract";
import type { Request, RequestHandler, Response, NextFunction } from "express";
import { HttpError } from "../base/http-error.js";
import { bearerToken, secretDigest, secretMatcher } from "./bearer.js";
import { setCaller, setRefusedKeyPrefix, type Caller } from "./caller.js";
import { rateLimited, refuseCredential } from "./credential-failures.js";
import type { IssuedKeys } from "./issued-keys.js";
import type { RecordKeyUse } from "./key-use.js";
import type { ActiveKey, TokenHolder } from "./access-repository.js";
import { isConfiguredKeyId, type ConfiguredKeys } from "./configured-keys.js";
import { unlimited, type LimitCount, type LimitName, type RequestLimiter } from "./rate-limit.js";
import { RateLimitFields } from "./rate-limit-headers.js";

export interface ApiKeyCheckOptions {
  /** API_KEYS, and the callers they are, named by their fingerprints (configured-keys.ts). */
  configuredKeys: ConfiguredKeys;
  /** Counts missing or invalid keys per client address; over its limit the address's further failures get 429. */
  authFailures: RequestLimiter;
  /** Counts requests per API key (by the caller's storeKey: `configured-<fingerprint>`, `key-<id>`, `staff-<id>`). */
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

/** The caller of an issued key sent as itself. */
function issuedCaller(key: ActiveKey): Caller {
  const keyId = String(key.id);
  return {
    storeKey: `key-${keyId}`,
    keyId,
    staffId: null,
    name: key.name,
    scope: key.scope,
    expiresAt: key.expiresAt,
    issuedKeyId: key.id,
    sessionId: undefined,
    actor: { keyId, staffId: null, name: key.name },
  };
}

/**
 * The caller of a session token: the person (`staff-<id>`), or the key whose browser session it is
 * (its key's own storeKey), so idempotency records and limits follow the caller across token renewals.
 * Undefined for a configured key's session whose key this process does not hold (rotated out of API_KEYS):
 * its tokens are refused here at once, whatever the database says.
 */
function tokenCaller(key: ActiveKey, token: TokenHolder, configuredKeys: ConfiguredKeys): Caller | undefined {
  const common = { name: key.name, scope: key.scope, expiresAt: key.expiresAt, sessionId: token.sessionId };
  if (token.staffId !== null) {
    return {
      ...common,
      storeKey: `staff-${token.staffId}`,
      keyId: null,
      staffId: token.staffId,
      issuedKeyId: undefined,
      actor: { keyId: null, staffId: token.staffId, name: key.name },
    };
  }
  const keyId = token.keyId ?? "unknown";
  if (isConfiguredKeyId(keyId)) {
    const configured = configuredKeys.byKeyId(keyId);
    return configured && { ...configured, scope: key.scope, expiresAt: key.expiresAt, sessionId: token.sessionId };
  }
  return {
    ...common,
    storeKey: `key-${keyId}`,
    keyId,
    staffId: null,
    issuedKeyId: Number(keyId),
    actor: { keyId, staffId: null, name: key.name },
  };
}

/** The 403 of a person-only operation called with a key, or of starting a session with a token. */
function wrongCredential(operation: string, needs: "personToken" | "key"): HttpError {
  return new HttpError(
    403,
    "FORBIDDEN",
    needs === "personToken"
      ? `${operation} is for a signed-in person: an API key (or a key's browser session) cannot call it.`
      : `${operation} takes an API key, not a session token.`,
    { "WWW-Authenticate": 'Bearer realm="petstore", error="insufficient_scope"' },
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
  configuredKeys,
  authFailures,
  requestsPerKey,
  onRejected,
  issuedKeys,
  recordKeyUse,
  operationOf,
}: ApiKeyCheckOptions): RequestHandler {
  const matchKey = secretMatcher(configuredKeys.apiKeys);
  const perKey = new RateLimitFields("per-key", requestsPerKey);
  // Counters and records are keyed by the caller, never a secret or its digest: a dump of Redis or the
  // database gives nothing to crack a weak configured key offline with (configured-keys.ts).
  const issuedCallers = new WeakMap<ActiveKey, Caller>();
  const callerOf = (key: ActiveKey): Caller | undefined => {
    let found = issuedCallers.get(key);
    if (!found) {
      found = key.token ? tokenCaller(key, key.token, configuredKeys) : issuedCaller(key);
      if (found) issuedCallers.set(key, found);
    }
    return found;
  };

  /** callerOf, once the configured keys' ids are known. */
  const callerOfSoon = async (key: ActiveKey): Promise<Caller | undefined> => {
    await configuredKeys.ready();
    return callerOf(key);
  };

  /** The 403 of an operation the caller's scope or credential does not cover, else undefined (and the key's use is recorded). */
  const scopeRefusal = (caller: Caller, res: Response): HttpError | undefined => {
    // An operation is the one matched at the top of the app, from the whole target, as the router will route
    // it; an unknown path or method needs no scope: it is a 404 or 405.
    const route = operationOf(res);
    if (!route) return undefined;
    const credential = OPERATION_CREDENTIALS[route.operation as AnyOperationName] as string | undefined;
    if (credential === "personToken" && caller.staffId === null) return wrongCredential(route.operation, "personToken");
    if (credential === "key" && caller.sessionId !== undefined) return wrongCredential(route.operation, "key");
    // A configured key is admin, which covers everything.
    if (caller.issuedKeyId === undefined && caller.sessionId === undefined) return undefined;
    // Fails closed: an operation missing from the table (a wiring fault; access-api.test.ts checks every route
    // against it) needs admin rather than nothing.
    const needed = (OPERATION_SCOPES[route.operation as OperationName] as Scope | undefined) ?? "admin";
    if (!scopeCovers(caller.scope, needed)) return insufficientScope(caller, route.operation, needed);
    if (caller.issuedKeyId !== undefined) {
      recordKeyUse?.(caller.issuedKeyId, "lastUsedAt");
      if (route.deprecation) recordKeyUse?.(caller.issuedKeyId, "lastDeprecatedUseAt");
    }
    return undefined;
  };

  const admit = (caller: Caller, res: Response, next: NextFunction) => {
    setCaller(res, caller);
    const refusal = scopeRefusal(caller, res);
    if (requestsPerKey === unlimited) return next(refusal); // the hot path skips a promise when nothing is counted
    const counted = (count: LimitCount) => {
      // Every answer to a counted request, a 403 too, says what is left, so a client can slow down before a 429.
      perKey.set(res, count);
      if (count.allowed) return next(refusal);
      onRejected?.("requests_per_key");
      next(rateLimited(count.resetSeconds, "Too many requests for this API key"));
    };
    // A 403 is counted like any request: probing operations beyond the key's scope is not free.
    // Counted in this process, the answer is at hand: no promise on the hot path.
    if (requestsPerKey.countNow) return counted(requestsPerKey.countNow(caller.storeKey));
    requestsPerKey.count(caller.storeKey).then(counted, next);
  };

  const refuse = (
    req: Request,
    res: Response,
    next: NextFunction,
    header: string | undefined,
    token: string | undefined,
    counted?: LimitCount,
  ) => {
    // An issued key's prefix is shown in key lists: the log line may name it, so a revoked key still in use can be found.
    if (token !== undefined && ISSUED_KEY_SECRET.test(token))
      setRefusedKeyPrefix(res, token.slice(0, KEY_PREFIX_LENGTH));
    refuseCredential({
      authFailures,
      clientAddress: req.ip ?? "unknown",
      onRejected,
      counted,
      tooManyReason: "Too many requests with a missing or invalid API key from this address",
      unauthorized: () =>
        new HttpError(
          401,
          "UNAUTHORIZED",
          header
            ? token === undefined
              ? "The Authorization header must have the form: Bearer <API_KEY>."
              : token.startsWith(SESSION_TOKEN_PREFIX)
                ? "The session token is not valid: it has expired, or its session has ended."
                : "The API key is not valid."
            : "An API key is required: send it as Authorization: Bearer <API_KEY>.",
          {
            "WWW-Authenticate":
              token === undefined ? 'Bearer realm="petstore"' : 'Bearer realm="petstore", error="invalid_token"',
          },
        ),
    }).then(next, next);
  };

  /**
   * A well-formed issued key or session token this process does not hold: it may have been made on another
   * process a moment ago, so it is read from the database before it is refused. The read is bounded by the
   * client address's failure budget, spent first: past it, the answer is the 429 without a read.
   */
  const lookUpThenRefuse = (
    req: Request,
    res: Response,
    next: NextFunction,
    header: string,
    token: string,
    digest: string,
    issued: IssuedKeys,
  ) => {
    authFailures
      .count(req.ip ?? "unknown")
      .then(async (count) => {
        if (!count.allowed) return refuse(req, res, next, header, token, count);
        const found = await issued.lookUp(digest);
        const foundCaller = found && (await callerOfSoon(found));
        if (!foundCaller) return refuse(req, res, next, header, token, count);
        // Found: not a failure. The unit goes back, so a token bought on another replica a moment ago is
        // not refused because others at the same address spent the budget.
        await authFailures.refund(req.ip ?? "unknown");
        admit(foundCaller, res, next);
      })
      .catch(next);
  };

  return (req, res, next) => {
    // Routes that take the session cookie, or nothing (their own one-time secret), are not the bearer's.
    const route = operationOf(res);
    const credential = route
      ? (OPERATION_CREDENTIALS[route.operation as AnyOperationName] as string | undefined)
      : undefined;
    if (credential === "cookie" || credential === "none") return next();
    const header = req.headers.authorization;
    const token = bearerToken(header);
    if (token === undefined) return refuse(req, res, next, header, token);
    const tokenDigest = secretDigest(token);
    const keyIndex = matchKey(tokenDigest);
    if (keyIndex !== -1) {
      const configured = configuredKeys.callers();
      if (configured) return admit(configured[keyIndex] as Caller, res, next);
      // Only until the fingerprint salt is first read (the process's first requests).
      return void configuredKeys.ready().then((callers) => admit(callers[keyIndex] as Caller, res, next), next);
    }
    if (!issuedKeys || !(token.startsWith(ISSUED_KEY_PREFIX) || token.startsWith(SESSION_TOKEN_PREFIX)))
      return refuse(req, res, next, header, token);
    const digest = tokenDigest.toString("hex");
    const wellFormed = ISSUED_KEY_SECRET.test(token) || SESSION_TOKEN_SECRET.test(token);
    const checkIssued = () => {
      const key = issuedKeys.find(digest);
      if (key) {
        const found = callerOf(key);
        if (found) return admit(found, res, next);
        // A configured key's session token: its key may be one of ours whose salt is not read yet.
        if (configuredKeys.callers()) return refuse(req, res, next, header, token);
        return void callerOfSoon(key).then(
          (soon) => (soon ? admit(soon, res, next) : refuse(req, res, next, header, token)),
          next,
        );
      }
      if (wellFormed && header !== undefined) lookUpThenRefuse(req, res, next, header, token, digest, issuedKeys);
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
