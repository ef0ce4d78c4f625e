/**
 * Tells a database that cannot serve a request right now (an outage the client
 * may retry through: 503) from a fault of ours (500), and names why. Both
 * providers: PostgreSQL through Prisma's pg adapter (or pg itself), SQLite
 * through better-sqlite3.
 *
 * A write the database cannot make for lack of resources (a full disk, no
 * memory, no connection free) is an outage too, not a bug: it passes once the
 * resource returns, with no restart.
 */

/** Seconds a client is told to wait before retrying while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** Why the database could not serve: a closed set, so it can label a metric. */
export type StorageFaultCause =
  | "disk_full"
  | "out_of_memory"
  | "too_many_connections"
  | "resource_limit"
  | "shutting_down"
  | "unreachable"
  | "lock_timeout";

export const STORAGE_FAULT_CAUSES: readonly StorageFaultCause[] = [
  "disk_full",
  "out_of_memory",
  "too_many_connections",
  "resource_limit",
  "shutting_down",
  "unreachable",
  "lock_timeout",
];

export interface StorageFault {
  cause: StorageFaultCause;
  /** For the log line: "the database's disk is full". Never sent to a client. */
  description: string;
  /** The database lacks a resource (disk, memory, connections) an operator may have to restore; else it is away or busy for a while. */
  lackOfResources: boolean;
}

const FAULTS: Record<StorageFaultCause, StorageFault> = {
  disk_full: { cause: "disk_full", description: "the database's disk is full", lackOfResources: true },
  out_of_memory: { cause: "out_of_memory", description: "the database is out of memory", lackOfResources: true },
  too_many_connections: {
    cause: "too_many_connections",
    description: "the database refused a connection: too many connections",
    lackOfResources: true,
  },
  resource_limit: {
    cause: "resource_limit",
    description: "the database ran into a resource limit",
    lackOfResources: true,
  },
  shutting_down: {
    cause: "shutting_down",
    description:
      "the database server ended the connection (shut down, or the backend terminated) or is not accepting connections yet",
    lackOfResources: false,
  },
  unreachable: {
    cause: "unreachable",
    description: "the database cannot be reached, or the connection to it was lost or timed out",
    lackOfResources: false,
  },
  lock_timeout: {
    cause: "lock_timeout",
    description: "another connection held the database's lock past the busy timeout",
    lackOfResources: false,
  },
};

/** Prisma's codes for a server not reachable, timed out, gone, or out of connections. */
const PRISMA_CODES = new Map<string, StorageFaultCause>([
  ["P1001", "unreachable"],
  ["P1002", "unreachable"],
  ["P1008", "unreachable"],
  ["P1017", "unreachable"],
  ["P2024", "unreachable"], // timed out fetching a connection from the pool
  ["P2037", "too_many_connections"],
]);
/** What @prisma/adapter-pg calls the same (meta.driverAdapterError.cause.kind). */
const ADAPTER_KINDS = new Map<string, StorageFaultCause>([
  ["DatabaseNotReachable", "unreachable"],
  ["ConnectionClosed", "unreachable"],
  ["SocketTimeout", "unreachable"],
  ["TooManyConnections", "too_many_connections"],
]);
/** Socket failures, from Node's net module under pg. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception); class 53, insufficient
 * resources (53100 disk full, 53200 out of memory, 53300 too many connections,
 * 53000 and 53400 the rest); 57P01..57P03 (the server is shutting down, was
 * shut down, or cannot take connections yet).
 */
function postgresCause(state: string): StorageFaultCause | undefined {
  if (/^08[0-9A-Z]{3}$/.test(state)) return "unreachable";
  if (/^57P0[1-3]$/.test(state)) return "shutting_down";
  switch (state) {
    case "53100":
      return "disk_full";
    case "53200":
      return "out_of_memory";
    case "53300":
      return "too_many_connections";
    case "53000":
    case "53400":
      return "resource_limit";
  }
  return undefined;
}

/**
 * better-sqlite3's codes (extended ones included). SQLite's unix VFS turns a
 * write that fails with ENOSPC into SQLITE_FULL (as does a database at its
 * max_page_count). Its SQLITE_IOERR_* codes (WRITE, FSYNC, TRUNCATE, SHMSIZE)
 * come from EIO and failing devices as well as from a full disk, so they are
 * left as faults (500), bar IOERR_NOMEM.
 */
function sqliteCause(code: string): StorageFaultCause | undefined {
  if (code === "SQLITE_FULL") return "disk_full";
  if (code === "SQLITE_NOMEM" || code === "SQLITE_IOERR_NOMEM") return "out_of_memory";
  // SQLITE_BUSY, SQLITE_LOCKED and their extended codes: another connection held the lock past busy_timeout.
  if (/^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return "lock_timeout";
  return undefined;
}

/** pg's own errors carry no code: a socket closed under a query, a pool that could not connect in time. */
const PG_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i;

type Inspectable = {
  code?: unknown;
  message?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
};

function causeHere({ code, kind, originalCode, message }: Inspectable): StorageFaultCause | undefined {
  if (typeof code === "string") {
    const cause =
      PRISMA_CODES.get(code) ??
      (SOCKET_CODES.has(code) ? "unreachable" : undefined) ??
      postgresCause(code) ??
      sqliteCause(code);
    if (cause) return cause;
  }
  const adapterCause = typeof kind === "string" ? ADAPTER_KINDS.get(kind) : undefined;
  if (adapterCause) return adapterCause;
  // The adapter's shape for any other PostgreSQL error: { kind: "postgres", originalCode: SQLSTATE, ... }.
  if (kind === "postgres" && typeof originalCode === "string") {
    const cause = postgresCause(originalCode);
    if (cause) return cause;
  }
  return typeof message === "string" && PG_MESSAGES.test(message) ? "unreachable" : undefined;
}

/**
 * What keeps the database from serving, when `error` (or what it wraps) says
 * it cannot be reached, is locked past its timeout, or lacks a resource;
 * undefined for anything else (a fault of ours).
 */
export function storageFaultOf(error: unknown): StorageFault | undefined {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  // Prisma wraps the adapter's error, which wraps pg's: look a few levels down, never in circles.
  while (pending.length > 0 && seen.size < 10) {
    const current = pending.shift();
    if (typeof current !== "object" || current === null || seen.has(current)) continue;
    seen.add(current);
    const candidate = current as Inspectable;
    const cause = causeHere(candidate);
    if (cause) return FAULTS[cause];
    pending.push(candidate.cause, candidate.meta?.driverAdapterError);
  }
  return undefined;
}

/** True when `error` (or what it wraps) is an outage the client can wait out (see `storageFaultOf`). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return storageFaultOf(error) !== undefined;
}
