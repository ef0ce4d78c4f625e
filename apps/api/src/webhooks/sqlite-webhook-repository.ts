import type Sqlite from "better-sqlite3";
import { sql } from "../data/sql-work.js";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import {
  ATTEMPTS_KEPT,
  claimedInOrder,
  fanOutEvents,
  type ClaimedDelivery,
  type ClaimRow,
  type DeliveryOutcome,
  type WebhookSenderStorage,
} from "./webhook-repository.js";

const DUE = `"status" = 'pending' AND "nextAttemptAt" <= ? AND ("claimedUntil" IS NULL OR "claimedUntil" < ?)`;

/**
 * The webhook senders' storage on SQLite: prepared statements on the API's connection (decision 040).
 * The fan-out reads the event log ("Event") after its cursor ("EventLog"."fanOutId"). SQLite has one
 * writer at a time and hands out ids under its lock, so ids are in commit order: nothing behind the
 * cursor can still commit, and the cursor never skips an event.
 */
export function createSqliteWebhookSenders(db: Sqlite.Database): WebhookSenderStorage {
  let statements: ReturnType<typeof prepare> | undefined;
  const prepared = () => (statements ??= prepare(db));
  return {
    async fanOut(take) {
      const { cursor, fanOut } = prepared();
      // A read first: a sender with nothing new since its last look takes no write lock.
      const { cursor: from, last } = cursor.get()!;
      if (last !== null && last > from) fanOut.immediate(take);
    },
    async claimDue(now, leaseUntil, claimToken, take, { perEndpoint, inFlight, lastEndpoint }) {
      const { roundOfDue, claim } = prepared();
      const at = timestamp(now);
      // Picked by a read, outside the write lock (an idle sender takes none); the claim checks again that
      // each is still due, so one that another process claimed meanwhile is left to it.
      const picked = roundOfDue
        .all(at, at, perEndpoint, JSON.stringify(Object.fromEntries(inFlight)), lastEndpoint, take)
        .map(({ id }) => id);
      if (picked.length === 0) return [];
      return claimedInOrder(
        claim.all(timestamp(leaseUntil), claimToken, JSON.stringify(picked), at, at),
        picked,
        claimToken,
      );
    },
    async recordOutcome(delivery, outcome) {
      prepared().recordOutcome.immediate(delivery, outcome);
    },
    oldestEvent: sql`SELECT "createdAt" FROM "Event" WHERE "id" > (SELECT "fanOutId" FROM "EventLog" WHERE "id" = 1) ORDER BY "id" LIMIT 1`,
  };
}

function prepare(db: Sqlite.Database) {
  const finish = db.prepare<[string, string, number, string, string, number, number, string]>(
    `UPDATE "WebhookDelivery" SET "status" = ?, "nextAttemptAt" = ?, "attemptCount" = "attemptCount" + ?,
       "attempts" = CASE WHEN ? = 'null' THEN "attempts" ELSE (
         SELECT json_group_array(json("value") ORDER BY "key") FROM (
           SELECT "key", "value" FROM json_each(json_insert("attempts", '$[#]', json(?))) ORDER BY "key" DESC LIMIT ?)) END,
       "claimedUntil" = NULL, "claimToken" = NULL
     WHERE "id" = ? AND "claimToken" = ?`,
  );
  const endpointSucceeded = db.prepare<[number]>(`UPDATE "WebhookEndpoint" SET "failingSince" = NULL WHERE "id" = ?`);
  const endpointFailed = db.prepare<[string, number]>(
    `UPDATE "WebhookEndpoint" SET "failingSince" = coalesce("failingSince", ?) WHERE "id" = ?`,
  );
  const disable = db.prepare<[string, number]>(
    `UPDATE "WebhookEndpoint" SET "enabled" = 0, "disabledReason" = ? WHERE "id" = ?`,
  );
  const recordOutcome = db.transaction((delivery: ClaimedDelivery, outcome: DeliveryOutcome) => {
    const attempt = JSON.stringify(outcome.attempt);
    const { changes } = finish.run(
      outcome.status,
      timestamp(outcome.nextAttemptAt),
      outcome.attempt ? 1 : 0,
      attempt,
      attempt,
      ATTEMPTS_KEPT,
      delivery.id,
      delivery.claimToken,
    );
    if (changes === 0 || !outcome.endpoint) return;
    const { succeeded, at, disable: reason } = outcome.endpoint;
    if (succeeded) endpointSucceeded.run(delivery.webhookId);
    else endpointFailed.run(timestamp(at), delivery.webhookId);
    if (reason) disable.run(reason, delivery.webhookId);
  });
  const cursor = db.prepare<[], { cursor: number; last: number | null }>(
    `SELECT "fanOutId" AS "cursor", (SELECT max("id") FROM "Event") AS "last" FROM "EventLog" WHERE "id" = 1`,
  );
  const fanOutBatch = db.prepare<[number, number]>(
    `${fanOutEvents(`(SELECT "id", "eventId", "type" AS "eventType", "data", "createdAt" FROM "Event" WHERE "id" > ? AND "id" <= ?)`)} ORDER BY "v"."id", "e"."id"`,
  );
  const moveCursor = db.prepare<[number]>(`UPDATE "EventLog" SET "fanOutId" = ? WHERE "id" = 1`);
  // Up to `take` events: ids have no gaps but where retention or a rollback left one, so `take` ids hold at most `take` events.
  const fanOut = db.transaction((take: number) => {
    const { cursor: from, last } = cursor.get()!;
    if (last === null || last <= from) return;
    const upto = Math.min(last, from + take);
    fanOutBatch.run(from, upto);
    moveCursor.run(upto);
  });
  return {
    cursor,
    fanOut,
    // Each endpoint's due deliveries, oldest first, numbered by turn; an endpoint gets no turn past its room
    // (perEndpoint less those in flight here); turn by turn, the endpoints after the one served last go first.
    roundOfDue: db.prepare<[string, string, number, string, number, number], { id: number }>(
      `SELECT "id" FROM (
         SELECT "id", "webhookId", row_number() OVER (PARTITION BY "webhookId" ORDER BY "nextAttemptAt", "id") AS "turn"
         FROM "WebhookDelivery" WHERE ${DUE})
       WHERE "turn" <= ? - coalesce(json_extract(?, '$."' || "webhookId" || '"'), 0)
       ORDER BY "turn", "webhookId" <= ?, "webhookId" LIMIT ?`,
    ),
    claim: db.prepare<[string, string, string, string, string], ClaimRow>(
      `UPDATE "WebhookDelivery" SET "claimedUntil" = ?, "claimToken" = ?
       WHERE "id" IN (SELECT "value" FROM json_each(?)) AND ${DUE}
       RETURNING "id", "webhookId", "eventId", "eventType", "data", "createdAt", "attemptCount"`,
    ),
    recordOutcome,
  };
}
