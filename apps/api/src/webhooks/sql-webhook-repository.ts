import type { AuditContext } from "../activity/audit-event.js";
import { recordActivity } from "../activity/recorded-activity.js";
import {
  execute,
  firstRow,
  forUpdate,
  joinSql,
  raw,
  rows,
  sql,
  toDate,
  type SqlRunner,
  type SqlStatement,
  type SqlWork,
} from "../data/sql-work.js";
import {
  storedEventTypes,
  toDeliveryRecord,
  toEndpointRecord,
  webhookLabel,
  type DeliveryRow,
  type EndpointRow,
  type WebhookEndpointRecord,
  type WebhookRepository,
  type WebhookSenderStorage,
} from "./webhook-repository.js";

const ENDPOINT_COLUMNS = raw(
  `"id", "url", "description", "eventTypes", "enabled", "disabledReason", "createdAt", "createdBy", "secret", "previousSecret", "previousSecretUntil", "failingSince"`,
);
const DELIVERY_COLUMNS = raw(`"id", "webhookId", "eventId", "eventType", "status", "createdAt", "attempts"`);

type WebhookAction = "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.secret_rotated";

/** The change's audit event, in its unit of work. */
function* audited(
  action: WebhookAction,
  endpoint: WebhookEndpointRecord,
  audit: AuditContext | undefined,
): SqlWork<void> {
  if (audit)
    yield* recordActivity(
      new Date(),
      action,
      { type: "webhook", id: endpoint.id, label: webhookLabel(endpoint) },
      audit,
    );
}

const endpointWhere = (where: SqlStatement) => sql`SELECT ${ENDPOINT_COLUMNS} FROM "WebhookEndpoint" WHERE ${where}`;

/**
 * Webhook endpoints and deliveries, written once for both providers (decision 040); the senders'
 * fan-out, claims and attempts are each provider's own (`senders`).
 */
export function createWebhookRepository(runner: SqlRunner, senders: WebhookSenderStorage): WebhookRepository {
  const { fanOut, claimDue, recordOutcome } = senders;
  return {
    fanOut,
    claimDue,
    recordOutcome,
    async listEndpoints() {
      return (
        await runner.read(() =>
          rows<EndpointRow>(sql`SELECT ${ENDPOINT_COLUMNS} FROM "WebhookEndpoint" ORDER BY "id" DESC`),
        )
      ).map(toEndpointRecord);
    },
    async findEndpoint(id) {
      const row = await runner.read(() => firstRow<EndpointRow>(endpointWhere(sql`"id" = ${id}`)));
      return row ? toEndpointRecord(row) : null;
    },
    createEndpoint({ url, description, eventTypes, secret, createdBy }, audit) {
      return runner.transaction(function* () {
        const row = yield* firstRow<EndpointRow>(sql`
          INSERT INTO "WebhookEndpoint" ("url", "description", "eventTypes", "secret", "createdAt", "createdBy")
          VALUES (${url}, ${description}, ${storedEventTypes(eventTypes)}, ${secret}, ${new Date()}, ${createdBy}) RETURNING ${ENDPOINT_COLUMNS}`);
        const created = toEndpointRecord(row!);
        yield* audited("webhook.created", created, audit);
        return created;
      });
    },
    updateEndpoint(id, { url, description, eventTypes, enabled }, audit) {
      const changes = [
        url !== undefined && sql`"url" = ${url}`,
        description !== undefined && sql`"description" = ${description}`,
        eventTypes !== undefined && sql`"eventTypes" = ${storedEventTypes(eventTypes)}`,
        enabled !== undefined && sql`"enabled" = ${enabled}`,
        enabled === true && sql`"disabledReason" = NULL, "failingSince" = NULL`,
      ].filter((change) => change !== false);
      return runner.transaction(function* () {
        const row = yield* firstRow<EndpointRow>(
          changes.length > 0
            ? sql`UPDATE "WebhookEndpoint" SET ${joinSql(changes, ", ")} WHERE "id" = ${id} RETURNING ${ENDPOINT_COLUMNS}`
            : endpointWhere(sql`"id" = ${id}`),
        );
        if (!row) return null;
        const updated = toEndpointRecord(row);
        yield* audited("webhook.updated", updated, audit);
        return updated;
      });
    },
    deleteEndpoint(id, audit) {
      return runner.transaction(function* () {
        // Locked: of two deletes at once, the second waits, then finds it gone (one event).
        const row = yield* firstRow<EndpointRow>(sql`${endpointWhere(sql`"id" = ${id}`)}${yield* forUpdate()}`);
        if (!row) return false;
        yield* execute(sql`DELETE FROM "WebhookDelivery" WHERE "webhookId" = ${id}`);
        yield* execute(sql`DELETE FROM "WebhookEndpoint" WHERE "id" = ${id}`);
        yield* audited("webhook.deleted", toEndpointRecord(row), audit);
        return true;
      });
    },
    rotateSecret(id, secret, previousUntil, audit) {
      return runner.transaction(function* () {
        // One statement: on PostgreSQL its row lock makes a second rotation wait and then rotate this
        // one's secret, so the secret before both is gone, never kept as the previous one.
        const row = yield* firstRow<EndpointRow>(sql`
          UPDATE "WebhookEndpoint" SET "previousSecret" = "secret", "secret" = ${secret}, "previousSecretUntil" = ${previousUntil}
          WHERE "id" = ${id} RETURNING ${ENDPOINT_COLUMNS}`);
        if (!row) return null;
        const rotated = toEndpointRecord(row);
        yield* audited("webhook.secret_rotated", rotated, audit);
        return rotated;
      });
    },
    async createTestDelivery(webhookId, eventId, data, at) {
      const row = await runner.transaction(() =>
        firstRow<DeliveryRow>(sql`
          INSERT INTO "WebhookDelivery" ("webhookId", "eventId", "eventType", "data", "createdAt", "nextAttemptAt")
          VALUES (${webhookId}, ${eventId}, 'webhook.test', ${data}, ${at}, ${at}) RETURNING ${DELIVERY_COLUMNS}`),
      );
      return toDeliveryRecord(row!);
    },
    async listDeliveries({ webhookId, take, before, status }) {
      const where = joinSql(
        [
          sql`"webhookId" = ${webhookId}`,
          ...(before !== undefined ? [sql`"id" < ${before}`] : []),
          ...(status !== undefined ? [sql`"status" = ${status}`] : []),
        ],
        " AND ",
      );
      const found = await runner.read(() =>
        rows<DeliveryRow>(
          sql`SELECT ${DELIVERY_COLUMNS} FROM "WebhookDelivery" WHERE ${where} ORDER BY "id" DESC LIMIT ${take}`,
        ),
      );
      return found.map(toDeliveryRecord);
    },
    resendDelivery(webhookId, id, at) {
      return runner.transaction(function* () {
        // One statement: a claim in progress holds the row (on SQLite, the write lock), and once it commits
        // this one sees its lease and changes nothing. A lease that ran out is no one's: its sender is gone,
        // and the claim token it left is overwritten by the next claim.
        const row = yield* firstRow<DeliveryRow>(sql`
          UPDATE "WebhookDelivery" SET "status" = 'pending', "nextAttemptAt" = ${at}
          WHERE "id" = ${id} AND "webhookId" = ${webhookId} AND ("claimedUntil" IS NULL OR "claimedUntil" < ${at})
          RETURNING ${DELIVERY_COLUMNS}`);
        if (row) return toDeliveryRecord(row);
        const exists = yield* firstRow(
          sql`SELECT 1 AS "one" FROM "WebhookDelivery" WHERE "id" = ${id} AND "webhookId" = ${webhookId}`,
        );
        return exists ? "being sent" : null;
      });
    },
    recoverEvents(webhookId, since, until, at) {
      return runner.transaction(function* () {
        const row = yield* firstRow<EndpointRow>(endpointWhere(sql`"id" = ${webhookId}`));
        if (!row) return null;
        const { eventTypes, createdAt } = toEndpointRecord(row);
        // Events from before it was registered were never its own: not "sent again".
        const from = since > createdAt ? since : createdAt;
        const window = sql`"x"."createdAt" >= ${from} AND "x"."createdAt" <= ${until}
          ${
            eventTypes.length > 0
              ? sql`AND "x"."type" IN (${joinSql(
                  eventTypes.map((type) => sql`${type}`),
                  ", ",
                )})`
              : sql``
          }`;
        // A failed delivery of an event in the window, and not held by a sender: due again.
        const again = yield* execute(sql`
          UPDATE "WebhookDelivery" SET "status" = 'pending', "nextAttemptAt" = ${at}
          WHERE "webhookId" = ${webhookId} AND "status" = 'failed' AND ("claimedUntil" IS NULL OR "claimedUntil" < ${at})
            AND "eventId" IN (SELECT "x"."eventId" FROM "Event" AS "x" WHERE ${window})`);
        // An event it has no delivery of at all.
        const added = yield* execute(sql`
          INSERT INTO "WebhookDelivery" ("webhookId", "eventId", "eventType", "data", "createdAt", "nextAttemptAt")
          SELECT ${webhookId}, "x"."eventId", "x"."type", "x"."data", "x"."createdAt", ${at} FROM "Event" AS "x"
          WHERE ${window} AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" AS "d" WHERE "d"."webhookId" = ${webhookId} AND "d"."eventId" = "x"."eventId")
          ORDER BY "x"."createdAt", "x"."id"`);
        return again + added;
      });
    },
    async eraseEndedSecrets(now) {
      const ended = sql`"previousSecretUntil" <= ${now}`;
      // A read first: a sender with no overlap to end takes no write lock.
      if (!(await runner.read(() => firstRow(sql`SELECT 1 AS "one" FROM "WebhookEndpoint" WHERE ${ended} LIMIT 1`))))
        return;
      await runner.transaction(() =>
        execute(sql`UPDATE "WebhookEndpoint" SET "previousSecret" = NULL, "previousSecretUntil" = NULL WHERE ${ended}`),
      );
    },
    async release(delivery) {
      await runner.transaction(() =>
        execute(
          sql`UPDATE "WebhookDelivery" SET "claimedUntil" = NULL, "claimToken" = NULL WHERE "id" = ${delivery.id} AND "claimToken" = ${delivery.claimToken}`,
        ),
      );
    },
    async oldestPendingAt() {
      const times = await runner.read(function* () {
        const delivery = yield* firstRow<{ createdAt: unknown }>(
          sql`SELECT min("createdAt") AS "createdAt" FROM "WebhookDelivery" WHERE "status" = 'pending'`,
        );
        const event = yield* firstRow<{ createdAt: unknown }>(senders.oldestEvent);
        return [delivery?.createdAt, event?.createdAt].filter((at) => at !== null && at !== undefined).map(toDate);
      });
      return times.length ? new Date(Math.min(...times.map((at) => at.getTime()))) : null;
    },
  };
}
