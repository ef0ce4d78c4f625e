import { purgeEvents } from "../events/event-log.js";
import {
  execute,
  provider,
  raw,
  rows,
  sql,
  toNumber,
  type SqlRunner,
  type SqlStatement,
  type SqlWork,
} from "../data/sql-work.js";
import { purgeDeletedPets } from "../pets/pet-changes.js";

/**
 * The one retention purge (docs/operations.md, "Retention"): what the store no longer needs, deleted in
 * small batches. Each batch is one short transaction, sized as it goes so none holds the write lock for
 * long (aim: 10 ms, never 50), with a rest after it three times as long, so requests go on between.
 * Later kinds of row join the list below, not a job of their own.
 */

/** How long each kind is kept, in ms (each `*_DAYS` setting). */
export interface RetentionSettings {
  /** ACTIVITY_RETENTION_DAYS: the activity log (client addresses included). At least 90 days: the triggers' floor. */
  activityMs: number;
  /** DELIVERY_RETENTION_DAYS: finished webhook deliveries and their attempts. */
  deliveryMs: number;
  /** EVENT_RETENTION_DAYS: the event log (the feed, streams' replay, webhook recovery). */
  eventMs: number;
  /** IDEMPOTENCY_TTL_HOURS: a create's remembered answer. */
  idempotencyMs: number;
  /** DELETED_PET_DAYS: a deleted pet, restorable until then; then purged for good (its history stays). */
  deletedPetMs: number;
}

export const RETENTION_KINDS = [
  "deletedPets",
  "activity",
  "deliveries",
  "events",
  "idempotency",
  "sessions",
  "tokens",
  "challenges",
  "invitations",
  "heartbeats",
] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];
export type PurgeCounts = Record<RetentionKind, number>;

/** A heartbeat row this old belongs to a process that stopped without deleting it (killed). */
const STALE_HEARTBEAT_MS = 86_400_000;

const TARGET_BATCH_MS = 10;
/**
 * After each batch the purge rests this many times as long as the batch took: it takes at most a quarter
 * of the connection (and, on SQLite, of the event loop), so requests keep their pace under load, not
 * only their turn. A daily job can afford to take four times as long.
 */
const REST_PER_BATCH = 3;
/**
 * On SQLite a batch holds the API's one connection and the database's write lock, so it shrinks to keep
 * within the target. On PostgreSQL it locks only the rows it deletes, which no request touches, and its
 * time is mostly round trips: it never shrinks below 500 rows, or a loaded host would make the purge crawl.
 */
const MIN_BATCH = { sqlite: 10, postgresql: 500 } as const;
const MAX_BATCH = 5_000;

export interface PurgeOptions {
  now?: () => Date;
  /** Called after each batch that deleted rows (metrics). */
  onPurged?: (kind: RetentionKind, count: number) => void;
  /** The longest a batch held the database, for whoever watches (the purge bench prints it). */
  onBatch?: (kind: RetentionKind, ms: number, rows: number) => void;
  /** Ends the purge between batches (the API's close); what it deleted stays deleted. */
  signal?: AbortSignal;
}

/**
 * One batch of a kind: deletes at most `limit` rows of it and answers how many it deleted and whether
 * more may be left. Kinds whose rows come in id order with their time use a window of the oldest ids,
 * so a batch reads at most `limit` rows even when nothing is old (no scan of a large table).
 */
type Batch = (cutoffs: Cutoffs, limit: number) => SqlWork<{ deleted: number; more: boolean }>;

interface Cutoffs {
  now: Date;
  activity: Date;
  deliveries: Date;
  events: Date;
  idempotency: Date;
  heartbeats: Date;
  deletedPets: Date;
}

/** The oldest `limit` rows by id; deletes those of them `old` selects; more are left while the window was all old. */
function* oldestWindow(table: string, old: SqlStatement, limit: number): SqlWork<{ deleted: number; more: boolean }> {
  const window = yield* rows<{ id: unknown }>(sql`SELECT "id" FROM ${raw(`"${table}"`)} ORDER BY "id" LIMIT ${limit}`);
  if (window.length === 0) return { deleted: 0, more: false };
  const last = toNumber(window.at(-1)!.id);
  const deleted = yield* execute(sql`DELETE FROM ${raw(`"${table}"`)} WHERE "id" <= ${last} AND ${old}`);
  return { deleted, more: deleted === window.length && window.length === limit };
}

/** Rows a time index finds: at most `limit` of them per batch. */
function* byIndex(
  table: string,
  key: readonly string[],
  old: SqlStatement,
  limit: number,
): SqlWork<{ deleted: number; more: boolean }> {
  const columns = key.map((column) => `"${column}"`).join(", ");
  const deleted = yield* execute(
    sql`DELETE FROM ${raw(`"${table}"`)} WHERE (${raw(columns)}) IN (SELECT ${raw(columns)} FROM ${raw(`"${table}"`)} WHERE ${old} LIMIT ${limit})`,
  );
  return { deleted, more: deleted === limit };
}

const BATCHES: Record<RetentionKind, Batch> = {
  // Each purged pet leaves a `pet.purged` event (actor "Retention") in the log; its history stays.
  deletedPets: (c, limit) => purgeDeletedPets(c.deletedPets, limit, c.now),
  // On PostgreSQL an operator may take DELETE on the log from the API's role and purge it with a role of
  // its own (docs/operations.md): then this role leaves the log to that one.
  activity: function* (c, limit) {
    if ((yield* provider()) === "postgresql") {
      const [may] = yield* rows<{ may: boolean }>(
        sql`SELECT has_table_privilege(current_user, '"AuditEvent"', 'DELETE') AS "may"`,
      );
      if (!may?.may) return { deleted: 0, more: false };
    }
    return yield* oldestWindow("AuditEvent", sql`"at" < ${c.activity}`, limit);
  },
  deliveries: (c, limit) =>
    oldestWindow("WebhookDelivery", sql`"createdAt" < ${c.deliveries} AND "status" <> 'pending'`, limit),
  events: (c, limit) => purgeEvents(c.events, limit),
  idempotency: (c, limit) => byIndex("IdempotencyRecord", ["scope", "key"], sql`"createdAt" < ${c.idempotency}`, limit),
  // A session's tokens go with it; a token still unexpired dies with its ended session anyway.
  sessions: function* (c, limit) {
    const dead = yield* rows<{ id: unknown }>(
      sql`SELECT "id" FROM "StaffSession" WHERE "expiresAt" < ${c.now} OR "endedAt" < ${c.now} LIMIT ${limit}`,
    );
    if (dead.length === 0) return { deleted: 0, more: false };
    const ids = dead.map((row) => toNumber(row.id));
    const list = raw(ids.map((id) => String(Math.trunc(id))).join(", "));
    yield* execute(sql`DELETE FROM "SessionToken" WHERE "sessionId" IN (${list})`);
    const deleted = yield* execute(sql`DELETE FROM "StaffSession" WHERE "id" IN (${list})`);
    return { deleted, more: dead.length === limit };
  },
  tokens: (c, limit) => byIndex("SessionToken", ["id"], sql`"expiresAt" < ${c.now}`, limit),
  challenges: (c, limit) => byIndex("PasskeyChallenge", ["id"], sql`"expiresAt" < ${c.now}`, limit),
  invitations: (c, limit) => byIndex("Invitation", ["id"], sql`"expiresAt" < ${c.now}`, limit),
  heartbeats: (c, limit) => byIndex("ApiHeartbeat", ["id"], sql`"beatAt" < ${c.heartbeats}`, limit),
};

/** Purges every kind once, oldest first, in batches; answers what it deleted of each. */
export async function purgeExpired(
  runner: SqlRunner,
  settings: RetentionSettings,
  { now = () => new Date(), onPurged, onBatch, signal }: PurgeOptions = {},
): Promise<PurgeCounts> {
  const at = now();
  const before = (ms: number) => new Date(at.getTime() - ms);
  const cutoffs: Cutoffs = {
    now: at,
    activity: before(settings.activityMs),
    deliveries: before(settings.deliveryMs),
    events: before(settings.eventMs),
    idempotency: before(settings.idempotencyMs),
    heartbeats: before(STALE_HEARTBEAT_MS),
    deletedPets: before(settings.deletedPetMs),
  };
  const counts = Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, 0])) as PurgeCounts;
  // A kind that fails does not keep the others from their purge; the failures are thrown together at the end.
  const failures: string[] = [];
  for (const kind of RETENTION_KINDS) {
    try {
      await purgeKind(kind);
    } catch (error) {
      failures.push(`${kind}: ${error instanceof Error ? error.message.trim().split("\n").at(-1) : String(error)}`);
    }
  }
  if (failures.length > 0)
    throw new Error(`retention purge failed for ${failures.join("; ")} (purged ${describePurge(counts)})`);
  return counts;

  async function purgeKind(kind: RetentionKind): Promise<void> {
    let limit = 500;
    while (!signal?.aborted) {
      const started = performance.now();
      const { deleted, more } = await runner.transaction(() => BATCHES[kind](cutoffs, limit));
      const ms = performance.now() - started;
      onBatch?.(kind, ms, deleted);
      if (deleted > 0) {
        counts[kind] += deleted;
        onPurged?.(kind, deleted);
      }
      if (!more) break;
      limit =
        ms > TARGET_BATCH_MS
          ? Math.max(MIN_BATCH[runner.provider], Math.floor(limit / 2))
          : ms < TARGET_BATCH_MS / 4
            ? Math.min(MAX_BATCH, limit * 2)
            : limit;
      // Requests waiting on the connection (SQLite) or its locks go first, and then some.
      await new Promise((resolve) => setTimeout(resolve, Math.max(2, Math.ceil(ms * REST_PER_BATCH))));
    }
  }
}

/** "activity 1200, deliveries 30" (kinds with nothing purged left out), or "nothing". */
export const describePurge = (counts: PurgeCounts): string =>
  RETENTION_KINDS.filter((kind) => counts[kind] > 0)
    .map((kind) => `${kind} ${counts[kind]}`)
    .join(", ") || "nothing";
