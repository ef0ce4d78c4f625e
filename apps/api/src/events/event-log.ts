import type { Event as LoggedEvent } from "@petstore/contract";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../activity/event-types.js";
import {
  execute,
  joinSql,
  provider,
  rows,
  sql,
  toDate,
  type SqlRunner,
  type SqlStatement,
  type SqlWork,
} from "../data/sql-work.js";

/**
 * The event log (docs/decisions/053-one-event-log.md): every `pet.*` and `key.*` event, written by the
 * activity log's writers in the change's own transaction (table "Event"), read here by the feed and the
 * streams, and by the webhook fan-out and recovery (webhooks/).
 *
 * An event's position is where it stands in the order events become visible. On SQLite that is its id:
 * ids are handed out under the one write lock, so id order is commit order. On PostgreSQL ids are handed
 * out before commit, so a transaction holding a low id can commit after one holding a higher id: there,
 * the position is `(xid, id)` (its transaction's id, then its own), and a reader takes only events whose
 * transaction is below the horizon (`event_horizon()`, migration 0018: its snapshot's oldest running
 * transaction of this database): every such transaction has ended, so nothing can appear later behind
 * what it read. A position is answered as the opaque text `<xid>-<id>` (xid 0 on SQLite).
 */
export interface EventPosition {
  xid: bigint;
  id: bigint;
}

export const START_POSITION: EventPosition = { xid: 0n, id: 0n };

export const encodePosition = ({ xid, id }: EventPosition): string => `${xid}-${id}`;

/** The position a text names, or undefined when it is not one this API wrote. */
export function decodePosition(text: string): EventPosition | undefined {
  const match = /^(0|[1-9][0-9]{0,19})-(0|[1-9][0-9]{0,18})$/.exec(text);
  if (!match) return undefined;
  const position = { xid: BigInt(match[1]!), id: BigInt(match[2]!) };
  return position.xid < 2n ** 64n && position.id < 2n ** 63n ? position : undefined;
}

export const comparePositions = (a: EventPosition, b: EventPosition): number =>
  a.xid === b.xid ? Number(a.id - b.id) : a.xid < b.xid ? -1 : 1;

/** Every type the log holds. */
export const LOGGED_TYPES: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES;

export type EventPageOutcome =
  | {
      kind: "page";
      /** Oldest first. */
      events: LoggedEvent[];
      /** Where the next page starts: the last event answered, or, on a page that is not full, the last event visible now of any type. */
      next: EventPosition;
    }
  /** `after` is behind what retention purged: events after it are gone. */
  | { kind: "gone" };

/**
 * An event as a stream sends it: its Server-Sent Events message made from the stored row (the data's
 * JSON text as written, not parsed and written again), with what the streams' reader needs beside.
 */
export interface StreamedEvent {
  position: EventPosition;
  type: WebhookEventType;
  /** `id: <position>`, `event: <type>`, `data: <the event as listEvents answers it>`, and the blank line. */
  message: string;
  /** A `key.revoked`'s key id: its streams end. */
  revokedKeyId?: number;
}

export function toStreamedEvent(
  row: Pick<EventRow, "xid" | "id" | "eventId" | "type" | "createdAt" | "data">,
): StreamedEvent {
  const position = positionOf(row);
  const at = encodePosition(position);
  const type = row.type as WebhookEventType;
  // The stored data is JSON.stringify's output: one line, so it is one `data:` line as it is.
  const event = `{"id":${JSON.stringify(row.eventId)},"position":"${at}","type":"${type}","timestamp":"${toDate(row.createdAt).toISOString()}","data":${row.data!}}`;
  return {
    position,
    type,
    message: `id: ${at}\nevent: ${type}\ndata: ${event}\n\n`,
    ...(type === "key.revoked" ? { revokedKeyId: (JSON.parse(row.data!) as { id: number }).id } : {}),
  };
}

export interface EventPageQuery {
  /** Undefined: from the oldest event kept. */
  after: EventPosition | undefined;
  /** Only these types (at least one). */
  types: readonly WebhookEventType[];
  take: number;
}

/** An "Event" row as both databases return it; `xid` as text (0 on SQLite). */
interface EventRow {
  kind: "event" | "frontier" | "purged";
  xid: string | number | bigint | null;
  id: number | bigint | string | null;
  eventId: string | null;
  type: string | null;
  createdAt: Date | string | null;
  data: string | null;
}

const positionOf = (row: Pick<EventRow, "xid" | "id">): EventPosition => ({
  xid: BigInt(row.xid ?? 0),
  id: BigInt(row.id ?? 0),
});

export function toLoggedEvent(
  row: Pick<EventRow, "xid" | "id" | "eventId" | "type" | "createdAt" | "data">,
): LoggedEvent {
  return {
    id: row.eventId!,
    position: encodePosition(positionOf(row)),
    type: row.type as LoggedEvent["type"],
    timestamp: toDate(row.createdAt).toISOString(),
    // Written by the API itself from the answer it gave (the pet, the key): the shape the contract says.
    data: JSON.parse(row.data!) as LoggedEvent["data"],
  };
}

const typeFilter = (types: readonly WebhookEventType[]): SqlStatement =>
  types.length === LOGGED_TYPES.length
    ? sql`1 = 1`
    : sql`"type" IN (${joinSql(
        types.map((type) => sql`${type}`),
        ", ",
      )})`;

/**
 * One page of the log after `after`, in one snapshot: the purge mark, the frontier (the last event
 * visible now, of any type) and the page, so that `next` never passes an event the page did not see.
 */
export function* readEventPage(query: EventPageQuery): SqlWork<EventPageOutcome> {
  const outcome = yield* readEventRows(query);
  return outcome.kind === "gone"
    ? outcome
    : { kind: "page", events: outcome.rows.map(toLoggedEvent), next: outcome.next };
}

/** As readEventPage, each event as a stream sends it. */
export function* readStreamedPage(
  query: EventPageQuery,
): SqlWork<{ kind: "gone" } | { kind: "page"; events: StreamedEvent[]; next: EventPosition }> {
  const outcome = yield* readEventRows(query);
  return outcome.kind === "gone"
    ? outcome
    : { kind: "page", events: outcome.rows.map(toStreamedEvent), next: outcome.next };
}

function* readEventRows({
  after,
  types,
  take,
}: EventPageQuery): SqlWork<{ kind: "gone" } | { kind: "page"; rows: EventRow[]; next: EventPosition }> {
  const from = after ?? START_POSITION;
  const found =
    (yield* provider()) === "postgresql"
      ? yield* rows<EventRow>(sql`
          WITH "visible" AS (SELECT "event_horizon"() AS "below"),
          "frontier" AS (
            SELECT "xid", "id" FROM "Event" WHERE "xid" < (SELECT "below" FROM "visible") ORDER BY "xid" DESC, "id" DESC LIMIT 1),
          "page" AS (
            SELECT "xid", "id", "eventId", "type", "createdAt", "data" FROM "Event"
            WHERE ("xid", "id") > (CAST(${String(from.xid)} AS xid8), CAST(${String(from.id)} AS bigint))
              AND "xid" < (SELECT "below" FROM "visible") AND ${typeFilter(types)}
            ORDER BY "xid", "id" LIMIT ${take})
          SELECT 'purged' AS "kind", "purgedXid"::text AS "xid", "purgedId" AS "id", NULL::text AS "eventId", NULL::text AS "type", NULL::timestamp(3) AS "createdAt", NULL::text AS "data" FROM "EventLog"
          UNION ALL SELECT 'frontier', "xid"::text, "id", NULL, NULL, NULL, NULL FROM "frontier"
          UNION ALL SELECT 'event', "xid"::text, "id", "eventId", "type", "createdAt", "data" FROM "page"`)
      : yield* sqliteEventPage(from, types, take);
  const purged = found.find((row) => row.kind === "purged");
  if (purged && comparePositions(from, positionOf(purged)) < 0) {
    // Without `after`, the oldest kept is the start: nothing was missed.
    if (after !== undefined) return { kind: "gone" };
  }
  const page = found.filter((row) => row.kind === "event");
  // PostgreSQL's UNION ALL keeps each branch's order; sorted anyway, so no plan can change it.
  const events = page
    .map((row) => ({ row, position: positionOf(row) }))
    .sort((a, b) => comparePositions(a.position, b.position));
  const frontier = found.find((row) => row.kind === "frontier");
  const last = events.at(-1)?.position;
  const candidates = [
    from,
    ...(purged ? [positionOf(purged)] : []),
    ...(last ? [last] : []),
    ...(events.length < take && frontier ? [positionOf(frontier)] : []),
  ];
  const next = candidates.reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b));
  return { kind: "page", rows: events.map(({ row }) => row), next };
}

function* sqliteEventPage(from: EventPosition, types: readonly WebhookEventType[], take: number): SqlWork<EventRow[]> {
  // One deferred transaction (runner.read): the three reads see one snapshot.
  const marks = yield* rows<EventRow>(sql`
    SELECT 'purged' AS "kind", 0 AS "xid", "purgedId" AS "id", NULL AS "eventId", NULL AS "type", NULL AS "createdAt", NULL AS "data" FROM "EventLog"
    UNION ALL SELECT 'frontier', 0, max("id"), NULL, NULL, NULL, NULL FROM "Event" HAVING max("id") IS NOT NULL`);
  const page = yield* rows<EventRow>(sql`
    SELECT 'event' AS "kind", 0 AS "xid", "id", "eventId", "type", "createdAt", "data" FROM "Event"
    WHERE "id" > ${Number(from.id)} AND ${typeFilter(types)} ORDER BY "id" LIMIT ${take}`);
  return [...marks, ...page];
}

/**
 * One batch of the retention purge: the oldest events older than `before`, in position order, none
 * the fan-out has not passed yet, never the newest (so SQLite, whose new ids follow the
 * largest one kept, never hands out an id again), at most `limit`. The purge mark moves to the last one
 * deleted, in the same transaction: a feed position behind it is `410`.
 */
export function* purgeEvents(before: Date, limit: number): SqlWork<{ deleted: number; more: boolean }> {
  const postgres = (yield* provider()) === "postgresql";
  const window = postgres
    ? yield* rows<EventRow>(sql`
        SELECT "x"."xid"::text AS "xid", "x"."id", "x"."createdAt" FROM "Event" AS "x", "EventLog" AS "mark"
        WHERE "mark"."id" = 1 AND ("x"."xid", "x"."id") <= ("mark"."fanOutXid", "mark"."fanOutId") AND "x"."createdAt" < ${before}
        ORDER BY "x"."xid", "x"."id" LIMIT ${limit + 1}`)
    : yield* rows<EventRow>(sql`
        SELECT 0 AS "xid", "id", "createdAt" FROM "Event"
        WHERE "id" <= (SELECT "fanOutId" FROM "EventLog" WHERE "id" = 1) AND "createdAt" < ${before}
        ORDER BY "id" LIMIT ${limit + 1}`);
  const [newest] = postgres
    ? yield* rows<EventRow>(sql`SELECT "xid"::text AS "xid", "id" FROM "Event" ORDER BY "xid" DESC, "id" DESC LIMIT 1`)
    : yield* rows<EventRow>(sql`SELECT 0 AS "xid", "id" FROM "Event" ORDER BY "id" DESC LIMIT 1`);
  // Position order is time order but for a few milliseconds of commit order: an old event just behind
  // a young one goes with the older ones, the young one stays, and the mark says events were purged there.
  const old = window
    .slice(0, limit)
    .filter((row) => !newest || comparePositions(positionOf(row), positionOf(newest)) < 0);
  const last = old.at(-1);
  if (!last) return { deleted: 0, more: false };
  const upto = positionOf(last);
  const deleted = postgres
    ? yield* execute(
        sql`DELETE FROM "Event" WHERE ("xid", "id") <= (CAST(${String(upto.xid)} AS xid8), CAST(${String(upto.id)} AS bigint)) AND "createdAt" < ${before}`,
      )
    : yield* execute(sql`DELETE FROM "Event" WHERE "id" <= ${Number(upto.id)} AND "createdAt" < ${before}`);
  yield* execute(
    postgres
      ? sql`UPDATE "EventLog" SET ("purgedXid", "purgedId") = (CAST(${String(upto.xid)} AS xid8), CAST(${String(upto.id)} AS bigint)) WHERE "id" = 1`
      : sql`UPDATE "EventLog" SET "purgedId" = ${Number(upto.id)} WHERE "id" = 1`,
  );
  return { deleted, more: window.length > limit && old.length === limit };
}

/** The last event visible now (the purge mark when none is kept): where a reader that wants only new events starts. */
export function* readFrontier(): SqlWork<EventPosition> {
  const [row] =
    (yield* provider()) === "postgresql"
      ? yield* rows<EventRow>(sql`
          SELECT "xid"::text AS "xid", "id" FROM (
            (SELECT "xid", "id" FROM "Event" WHERE "xid" < "event_horizon"() ORDER BY "xid" DESC, "id" DESC LIMIT 1)
            UNION ALL SELECT "purgedXid", "purgedId" FROM "EventLog") AS "candidates"
          ORDER BY "candidates"."xid" DESC, "candidates"."id" DESC LIMIT 1`)
      : yield* rows<EventRow>(
          sql`SELECT 0 AS "xid", max(coalesce((SELECT max("id") FROM "Event"), 0), "purgedId") AS "id" FROM "EventLog"`,
        );
  return row ? positionOf(row) : START_POSITION;
}

/** The log's reads, on the API's database. */
export interface EventLog {
  readPage(query: EventPageQuery): Promise<EventPageOutcome>;
  /** As readPage, each event as a stream sends it. */
  readStreamed(
    query: EventPageQuery,
  ): Promise<{ kind: "gone" } | { kind: "page"; events: StreamedEvent[]; next: EventPosition }>;
  frontier(): Promise<EventPosition>;
}

export const createEventLog = (runner: SqlRunner): EventLog => ({
  readPage: (query) => runner.read(() => readEventPage(query)),
  readStreamed: (query) => runner.read(() => readStreamedPage(query)),
  frontier: () => runner.read(readFrontier),
});
