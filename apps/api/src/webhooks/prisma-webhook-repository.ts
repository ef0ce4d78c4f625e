import { Prisma, type PrismaClient } from "../generated/pg/client.js";
import {
  ATTEMPTS_KEPT,
  storedEventTypes,
  toDeliveryRecord,
  toEndpointRecord,
  type ClaimedDelivery,
  type DeliveryRow,
  type WebhookEndpointRecord,
  type WebhookRepository,
  webhookLabel,
} from "./webhook-repository.js";

type TransactionClient = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
type WebhookAction = "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.secret_rotated";

/** The change's audit event, in its transaction. */
async function audited(tx: TransactionClient, action: WebhookAction, endpoint: WebhookEndpointRecord, audit: AuditContext | undefined) {
  if (audit) await recordActivity(tx, new Date(), action, { type: "webhook", id: endpoint.id, label: webhookLabel(endpoint) }, audit);
}
import { fanOutEvents, type WebhookEventType } from "../activity/webhook-outbox.js";
import type { AuditContext } from "../activity/audit-event.js";
import { recordActivity } from "../activity/prisma-activity-log.js";

const deliveryColumns = { id: true, webhookId: true, eventId: true, eventType: true, status: true, createdAt: true, attempts: true } as const;

/** A JS time as the `timestamp(3)` (UTC, no zone) columns hold it, for raw SQL. */
const at = (date: Date) => Prisma.sql`${date.toISOString()}::timestamp`;

/** Webhook endpoints and deliveries on PostgreSQL, through Prisma's generated client. */
export function createPrismaWebhookRepository(prisma: PrismaClient): WebhookRepository {
  return {
    async listEndpoints() {
      return (await prisma.webhookEndpoint.findMany({ orderBy: { id: "desc" } })).map(toEndpointRecord);
    },
    async findEndpoint(id) {
      const row = await prisma.webhookEndpoint.findUnique({ where: { id: BigInt(id) } });
      return row ? toEndpointRecord(row) : null;
    },
    async createEndpoint({ url, description, eventTypes, secret, createdBy }, audit) {
      return prisma.$transaction(async (tx) => {
        const row = await tx.webhookEndpoint.create({
          data: { url, description, eventTypes: storedEventTypes(eventTypes), secret, createdBy, createdAt: new Date() },
        });
        const created = toEndpointRecord(row);
        await audited(tx, "webhook.created", created, audit);
        return created;
      });
    },
    async updateEndpoint(id, { url, description, eventTypes, enabled }, audit) {
      return prisma.$transaction(async (tx) => {
        const { count } = await tx.webhookEndpoint.updateMany({
          where: { id: BigInt(id) },
          data: {
            ...(url !== undefined ? { url } : {}),
            ...(description !== undefined ? { description } : {}),
            ...(eventTypes !== undefined ? { eventTypes: storedEventTypes(eventTypes) } : {}),
            ...(enabled !== undefined ? { enabled } : {}),
            ...(enabled === true ? { disabledReason: null, failingSince: null } : {}),
          },
        });
        if (count === 0) return null;
        const updated = toEndpointRecord((await tx.webhookEndpoint.findUnique({ where: { id: BigInt(id) } }))!);
        await audited(tx, "webhook.updated", updated, audit);
        return updated;
      });
    },
    async deleteEndpoint(id, audit) {
      return prisma.$transaction(async (tx) => {
        const [row] = await tx.webhookEndpoint.findMany({ where: { id: BigInt(id) } });
        if (!row) return false;
        await tx.webhookDelivery.deleteMany({ where: { webhookId: BigInt(id) } });
        const { count } = await tx.webhookEndpoint.deleteMany({ where: { id: BigInt(id) } });
        if (count === 1) await audited(tx, "webhook.deleted", toEndpointRecord(row), audit);
        return count === 1;
      });
    },
    async rotateSecret(id, secret, previousUntil, audit) {
      return prisma.$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<Parameters<typeof toEndpointRecord>[0][]>`
          UPDATE "WebhookEndpoint" SET "previousSecret" = "secret", "secret" = ${secret}, "previousSecretUntil" = ${at(previousUntil)}
          WHERE "id" = ${BigInt(id)} RETURNING *`;
        if (!row) return null;
        const rotated = toEndpointRecord(row);
        await audited(tx, "webhook.secret_rotated", rotated, audit);
        return rotated;
      });
    },
    async createTestDelivery(webhookId, eventId, data, when) {
      const row = await prisma.webhookDelivery.create({
        select: deliveryColumns,
        data: { webhookId: BigInt(webhookId), eventId, eventType: "webhook.test", data, createdAt: when, nextAttemptAt: when },
      });
      return toDeliveryRecord(row);
    },
    async listDeliveries({ webhookId, take, before, status }) {
      const rows = await prisma.webhookDelivery.findMany({
        select: deliveryColumns,
        where: {
          webhookId: BigInt(webhookId),
          ...(before !== undefined ? { id: { lt: BigInt(before) } } : {}),
          ...(status !== undefined ? { status } : {}),
        },
        orderBy: { id: "desc" },
        take,
      });
      return rows.map(toDeliveryRecord);
    },
    async resendDelivery(webhookId, id, when) {
      // One statement: a claim in progress holds the row, and once it commits this one sees its lease and
      // changes nothing. A lease that ran out is no one's (its claim token is overwritten by the next claim).
      const [row] = await prisma.$queryRaw<DeliveryRow[]>`
        UPDATE "WebhookDelivery" SET "status" = 'pending', "nextAttemptAt" = ${at(when)}
        WHERE "id" = ${BigInt(id)} AND "webhookId" = ${BigInt(webhookId)} AND ("claimedUntil" IS NULL OR "claimedUntil" < ${at(when)})
        RETURNING "id", "webhookId", "eventId", "eventType", "status", "createdAt", "attempts"`;
      if (row) return toDeliveryRecord(row);
      const exists = await prisma.webhookDelivery.count({ where: { id: BigInt(id), webhookId: BigInt(webhookId) } });
      return exists ? "being sent" : null;
    },
    async fanOut(take) {
      // One statement, so one transaction: the events it deletes are the ones it fans out, and SKIP LOCKED
      // lets another replica's sender take the next ones meanwhile instead of waiting.
      await prisma.$executeRaw`
        WITH "taken" AS (
          DELETE FROM "WebhookEvent"
          WHERE "id" IN (SELECT "id" FROM "WebhookEvent" ORDER BY "id" LIMIT ${take} FOR UPDATE SKIP LOCKED)
          RETURNING "id", "eventId", "eventType", "data", "createdAt")
        ${Prisma.raw(fanOutEvents(`"taken"`))}
        ORDER BY "v"."id", "e"."id"`;
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
      const rows = await prisma.$queryRaw<
        Array<{ id: bigint; webhookId: bigint; eventId: string; eventType: string; data: string; createdAt: Date; attemptCount: number }>
      >`
        UPDATE "WebhookDelivery" SET "claimedUntil" = ${at(leaseUntil)}, "claimToken" = ${claimToken}
        WHERE "id" IN (
          SELECT "id" FROM "WebhookDelivery"
          WHERE "id" IN (SELECT "value"::bigint FROM jsonb_array_elements_text(${JSON.stringify(picked.map(String))}::jsonb)) AND ${due}
          FOR UPDATE SKIP LOCKED)
        RETURNING "id", "webhookId", "eventId", "eventType", "data", "createdAt", "attemptCount"`;
      const order = new Map(picked.map((id, index) => [Number(id), index]));
      return rows
        .map(
          (row): ClaimedDelivery => ({
            ...row,
            id: Number(row.id),
            webhookId: Number(row.webhookId),
            eventType: row.eventType as WebhookEventType,
            createdAt: new Date(row.createdAt),
            attemptCount: Number(row.attemptCount),
            claimToken,
          }),
        )
        .sort((a, b) => order.get(a.id)! - order.get(b.id)!);
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
        if (disable) await tx.webhookEndpoint.updateMany({ where: { id }, data: { enabled: false, disabledReason: disable } });
      });
    },
    async eraseEndedSecrets(now) {
      await prisma.webhookEndpoint.updateMany({
        where: { previousSecretUntil: { lte: now } },
        data: { previousSecret: null, previousSecretUntil: null },
      });
    },
    async release(delivery) {
      await prisma.webhookDelivery.updateMany({
        where: { id: BigInt(delivery.id), claimToken: delivery.claimToken },
        data: { claimedUntil: null, claimToken: null },
      });
    },
    async oldestPendingAt() {
      const [delivery, event] = await Promise.all([
        prisma.webhookDelivery.findFirst({ select: { createdAt: true }, where: { status: "pending" }, orderBy: { createdAt: "asc" } }),
        prisma.webhookEvent.findFirst({ select: { createdAt: true }, orderBy: { id: "asc" } }),
      ]);
      const times = [delivery?.createdAt, event?.createdAt].filter((at): at is Date => at !== undefined);
      return times.length ? new Date(Math.min(...times.map((at) => at.getTime()))) : null;
    },
  };
}
