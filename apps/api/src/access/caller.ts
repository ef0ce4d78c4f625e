import type { AuditActor, Scope } from "@petstore/contract";
import type { Request, Response } from "express";
import type { AuditContext } from "../activity/audit-event.js";

/** Who is calling: the key the request was made with, or the person or key whose session token it is. */
export interface Caller {
  /**
   * What is stored per client (idempotency records, rate-limit counters) is keyed by: `configured-N` for
   * the N-th key of API_KEYS, `key-<id>` for an issued key, `staff-<id>` for a person. A key's session
   * tokens are their key's caller, a person's tokens theirs, so a retry after a token renewal is the same
   * caller. Never a secret nor its digest: a dump of the database or of Redis gives nothing to crack a
   * weak configured key offline with.
   */
  storeKey: string;
  /** An issued key's id in decimal, or `configured-N` for the N-th key of API_KEYS (1-based); null for a person. */
  keyId: string | null;
  /** The person's staff id; null for a key (and a key's session). */
  staffId: number | null;
  name: string;
  scope: Scope;
  expiresAt: Date | null;
  /** An issued key's database id (its own, or its session's); undefined for a configured key and a person. */
  issuedKeyId: number | undefined;
  /** The browser session a session token (`pst_`) was bought with; undefined for a key sent as itself. */
  sessionId: number | undefined;
  /** As audit events name it; made once per key or token, not per request. */
  actor: AuditActor;
}

// A symbol key: nothing but these functions can read or write it.
const CALLER = Symbol("caller");
type Locals = Record<symbol, unknown>;

/** Records who is calling, once the key check has passed. */
export function setCaller(res: Response, caller: Caller): void {
  (res.locals as Locals)[CALLER] = caller;
}

/** Who is calling. Throws when the request never passed the key check: a wiring fault. */
export function caller(res: Response): Caller {
  const found = (res.locals as Locals)[CALLER];
  if (found === undefined)
    throw new Error("no API key check ran for this request (requireApiKey is not mounted before it)");
  return found as Caller;
}

// The prefix of an issued-form key the check refused (unknown, revoked or expired), for the log line only.
const REFUSED_KEY_PREFIX = Symbol("refused key prefix");

/** Records the prefix (`psk_` and 8 characters, as key lists show it) of an issued-form key the check refused. */
export function setRefusedKeyPrefix(res: Response, prefix: string): void {
  (res.locals as Locals)[REFUSED_KEY_PREFIX] = prefix;
}

/**
 * What a refused request's log line names of its key: the caller's id when the check recognised the
 * key (a 403, a per-key 429), else the prefix of an issued-form key it refused; never a secret.
 */
export function keyNamedInLog(
  res: Response,
): { keyId: string } | { staffId: number } | { keyPrefix: string } | undefined {
  const locals = res.locals as Locals;
  const found = locals[CALLER] as Caller | undefined;
  if (found) return found.keyId === null ? { staffId: found.staffId ?? 0 } : { keyId: found.keyId };
  const prefix = locals[REFUSED_KEY_PREFIX] as string | undefined;
  return prefix === undefined ? undefined : { keyPrefix: prefix };
}

/** What the records of the key the request was made with are keyed by (see Caller.storeKey). */
export function callerStoreKey(res: Response): string {
  return caller(res).storeKey;
}

/** Who makes a change through this request: its key, the response's `X-Request-Id`, the client's address. */
export function auditContext(req: Pick<Request, "id" | "ip">, res: Response): AuditContext {
  return { actor: caller(res).actor, requestId: req.id || null, clientAddress: req.ip ?? null };
}
