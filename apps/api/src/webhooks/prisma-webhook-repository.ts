import { sql } from "../data/sql-work.js";
import { Prisma, type PrismaClient } from "../generated/pg/client.js";
import {
  ATTEMPTS_KEPT,
  claimedInOrder,
  fanOutEvents,
  type ClaimRow,
  type WebhookSenderStorage,
} from "./webhook-repository.js";

/** A JS time as the `timestamp(3)` (UTC, no zone) columns hold it, for raw SQL. */
const at = (date: Date) => Prisma.sql`${date.toISOString()}::timestamp`;

/** The webhook senders' storage on PostgreSQL: raw SQL through Prisma's client (decision 040). */
export function createPrismaWebhookSenders(prisma: PrismaClient): WebhookSenderStorage {
  return {
    async fanOut(take) {
      // One statement, so one transaction and one snapshot: it takes the cursor's row (SKIP LOCKED: while
      // another replica's sender fans out, this one does nothing), reads the events after it whose
      // transaction is below the horizon, `event_horizon()` (every one of those has ended, so none can commit
      // later behind the cursor: docs/decisions/053-one-event-log.md), fans them out and moves the cursor.
      await prisma.$executeRaw`
        WITH "mark" AS (SELECT "fanOutXid", "fanOutId" FROM "EventLog" WHERE "id" = 1 FOR UPDATE SKIP LOCKED),
        "taken" AS (
          SELECT "x"."xid", "x"."id", "x"."eventId", "x"."type" AS "eventType", "x"."data", "x"."createdAt" FROM "Event" AS "x", "mark"
          WHERE ("x"."xid", "x"."id") > ("mark"."fanOutXid", "mark"."fanOutId") AND "x"."xid" < "event_horizon"()
          ORDER BY "x"."xid", "x"."id" LIMIT ${take}),
        "moved" AS (
          UPDATE "EventLog" SET ("fanOutXid", "fanOutId") = (SELECT "xid", "id" FROM "taken" ORDER BY "xid" DESC, "id" DESC LIMIT 1)
          WHERE "id" = 1 AND EXISTS (SELECT 1 FROM "taken"))
        ${Prisma.raw(fanOutEvents(`"taken"`))}
        ORDER BY "v"."xid", "v"."id", "e"."id"`;
    },
    async claimDue(now, leaseUntil, claimToken, take, { perEndpoint, inFlight, lastEndpoint }) {
      const due = Prisma.sql`"status" = 'pending' AND "nextAttemptAt" <= ${at(now)} AND ("claimedUntil" IS NULL OR "claimedUntil" < ${at(now)})`;
      // Picked by a read that locks nothing (a window function cannot sit beside FOR UPDATE): each
      // endpoint's due deliveries, oldest first, numbered by turn; an endpoint gets no turn past its room
      // (perEndpoint less those in flight here); turn by turn, the endpoints after the one served last go first.
      const picked = (
        await prisma.$queryRaw<Array<{ id: bigint }>>`
          SELECT "id" FROM (
            SELECT "id", "webhookId", row_number() OVER (PARTITION BY "webhookId" ORDER BY "nextAttemptAt", "id") AS "turn"
            FROM "WebhookDelivery" WHERE ${due}) AS "round"
          WHERE "turn" <= ${perEndpoint} - coalesce((${JSON.stringify(Object.fromEntries(inFlight))}::jsonb ->> "webhookId"::text)::int, 0)
          ORDER BY "turn", "webhookId" <= ${BigInt(lastEndpoint)}, "webhookId" LIMIT ${take}`
      ).map(({ id }) => id);
      if (picked.length === 0) return [];
      // One statement, so one short transaction: SKIP LOCKED lets every replica's sender claim at once
      // without waiting on, or taking, each other's rows; those another one claimed since the read are not due.
      const rows = await prisma.$queryRaw<ClaimRow[]>`
        UPDATE "WebhookDelivery" SET "claimedUntil" = ${at(leaseUntil)}, "claimToken" = ${claimToken}
        WHERE "id" IN (
          SELECT "id" FROM "WebhookDelivery"
          WHERE "id" IN (SELECT "value"::bigint FROM jsonb_array_elements_text(${JSON.stringify(picked.map(String))}::jsonb)) AND ${due}
          FOR UPDATE SKIP LOCKED)
        RETURNING "id", "webhookId", "eventId", "eventType", "data", "createdAt", "attemptCount"`;
      return claimedInOrder(rows, picked, claimToken);
    },
    async recordOutcome(delivery, outcome) {
      await prisma.$transaction(async (tx) => {
        const attempts = outcome.attempt
          ? Prisma.sql`(
              SELECT coalesce(jsonb_agg("attempt" ORDER BY "n"), '[]'::jsonb)::text
              FROM jsonb_array_elements("attempts"::jsonb || jsonb_build_array(${JSON.stringify(outcome.attempt)}::jsonb)) WITH ORDINALITY AS "a"("attempt", "n")
              WHERE "n" > jsonb_array_length("attempts"::jsonb) + 1 - ${ATTEMPTS_KEPT})`
          : Prisma.sql`"attempts"`;
        const changed = await tx.$executeRaw`
          UPDATE "WebhookDelivery" SET "status" = ${outcome.status}, "nextAttemptAt" = ${at(outcome.nextAttemptAt)},
            "attemptCount" = "attemptCount" + ${outcome.attempt ? 1 : 0}, "attempts" = ${attempts},
            "claimedUntil" = NULL, "claimToken" = NULL
          WHERE "id" = ${BigInt(delivery.id)} AND "claimToken" = ${delivery.claimToken}`;
        if (changed === 0 || !outcome.endpoint) return;
        const { succeeded, at: when, disable } = outcome.endpoint;
        const id = BigInt(delivery.webhookId);
        if (succeeded) await tx.webhookEndpoint.updateMany({ where: { id }, data: { failingSince: null } });
        else await tx.webhookEndpoint.updateMany({ where: { id, failingSince: null }, data: { failingSince: when } });
        if (disable)
          await tx.webhookEndpoint.updateMany({ where: { id }, data: { enabled: false, disabledReason: disable } });
      });
    },
    oldestEvent: sql`SELECT "x"."createdAt" FROM "Event" AS "x", "EventLog" AS "mark"
      WHERE "mark"."id" = 1 AND ("x"."xid", "x"."id") > ("mark"."fanOutXid", "mark"."fanOutId") ORDER BY "x"."xid", "x"."id" LIMIT 1`,
  };
}
