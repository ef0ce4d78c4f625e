/**
 * Tells a database that cannot be reached right now (an outage the client may
 * retry through: 503) from a fault of ours (500). Both providers: PostgreSQL
 * through Prisma's pg adapter (or pg itself), SQLite through better-sqlite3.
 */

/** Seconds a client is told to wait before retrying while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** Prisma's codes for a server not reachable, timed out, gone, or out of connections. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
/** What @prisma/adapter-pg calls the same (meta.driverAdapterError.cause.kind). */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** Socket failures, from Node's net module under pg. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01..57P03 (the server is
 * shutting down, was shut down, or cannot take connections yet), 53300 (too many connections).
 */
const POSTGRES_STATE = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/;
/** pg's own errors carry no code: a socket closed under a query, a pool that could not connect in time. */
const PG_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i;
/** SQLITE_BUSY, SQLITE_LOCKED and their extended codes: another connection held the lock past busy_timeout. */
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED)(_|$)/;

type Inspectable = {
  code?: unknown;
  message?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
};

function unavailableHere(error: Inspectable): boolean {
  const { code, kind, originalCode, message } = error;
  if (typeof code === "string" && (PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || POSTGRES_STATE.test(code) || SQLITE_CODES.test(code))) {
    return true;
  }
  if (typeof kind === "string" && ADAPTER_KINDS.has(kind)) return true;
  if (kind === "postgres" && typeof originalCode === "string" && POSTGRES_STATE.test(originalCode)) return true;
  return typeof message === "string" && PG_MESSAGES.test(message);
}

/** True when `error` (or what it wraps) says the database cannot be reached or is locked past its timeout. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  // Prisma wraps the adapter's error, which wraps pg's: look a few levels down, never in circles.
  while (pending.length > 0 && seen.size < 10) {
    const current = pending.shift();
    if (typeof current !== "object" || current === null || seen.has(current)) continue;
    seen.add(current);
    const candidate = current as Inspectable;
    if (unavailableHere(candidate)) return true;
    pending.push(candidate.cause, candidate.meta?.driverAdapterError);
  }
  return false;
}
