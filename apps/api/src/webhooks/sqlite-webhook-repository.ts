import type Sqlite from "better-sqlite3";
import { sql } from "../data/sql-work.js";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import { ATTEMPTS_KEPT, claimedInOrder, fanOutEvents, type ClaimedDelivery, type ClaimRow, type DeliveryOutcome, type WebhookSenderStorage } from "./webhook-repository.js";

const DUE = `"status" = 'pending' AND "nextAttemptAt" <= ? AND ("claimedUntil" IS NULL OR "claimedUntil" < ?)`;

/**
 * The webhook senders' storage on SQLite: prepared statements on the API's connection (decision 040).
 * The outbox is the audit rows after the cursor that carry an event (sqlite-activity-log.ts). SQLite
 * has one writer at a time and hands out ids under its lock, so ids are in commit order: nothing
 * behind the cursor can still commit, and the cursor never skips an event.
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
      const picked = roundOfDue.all(at, at, perEndpoint, JSON.stringify(Object.fromEntries(inFlight)), lastEndpoint, take).map(({ id }) => id);
      if (picked.length === 0) return [];
      return claimedInOrder(claim.all(timestamp(leaseUntil), claimToken, JSON.stringify(picked), at, at), picked, claimToken);
    },
    async recordOutcome(delivery, outcome) {
      prepared().recordOutcome.immediate(delivery, outcome);
    },
    oldestEvent: sql`SELECT "at" AS "createdAt" FROM "AuditEvent" WHERE "id" > (SELECT "lastAuditEventId" FROM "WebhookFanOut" WHERE "id" = 1)
      AND "webhookEventId" IS NOT NULL ORDER BY "id" LIMIT 1`,
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
  const endpointFailed = db.prepare<[string, number]>(`UPDATE "WebhookEndpoint" SET "failingSince" = coalesce("failingSince", ?) WHERE "id" = ?`);
  const disable = db.prepare<[string, number]>(`UPDATE "WebhookEndpoint" SET "enabled" = 0, "disabledReason" = ? WHERE "id" = ?`);
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
    `SELECT "lastAuditEventId" AS "cursor", (SELECT max("id") FROM "AuditEvent") AS "last" FROM "WebhookFanOut" WHERE "id" = 1`,
  );
  const nthEvent = db.prepare<[number, number], { id: number }>(
    `SELECT "id" FROM "AuditEvent" WHERE "id" > ? AND "webhookEventId" IS NOT NULL ORDER BY "id" LIMIT 1 OFFSET ?`,
  );
  const fanOutBatch = db.prepare<[number, number]>(
    `${fanOutEvents(`(SELECT "id", "webhookEventId" AS "eventId", "action" AS "eventType", "webhookData" AS "data", "at" AS "createdAt"
       FROM "AuditEvent" WHERE "id" > ? AND "id" <= ? AND "webhookEventId" IS NOT NULL)`)} ORDER BY "v"."id", "e"."id"`,
  );
  const moveCursor = db.prepare<[number]>(`UPDATE "WebhookFanOut" SET "lastAuditEventId" = ? WHERE "id" = 1`);
  // Up to `take` events; the rows in between that carry none are passed over in the same move.
  const fanOut = db.transaction((take: number) => {
    const { cursor: from, last } = cursor.get()!;
    if (last === null || last <= from) return;
    const upto = nthEvent.get(from, take - 1)?.id ?? last;
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
