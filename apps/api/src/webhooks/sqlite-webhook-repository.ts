import type Sqlite from "better-sqlite3";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import type { AuditContext } from "../activity/audit-event.js";
import { sqliteActivityWriter } from "../activity/sqlite-activity-log.js";
import { fanOutEvents } from "../activity/webhook-outbox.js";
import {
  ATTEMPTS_KEPT,
  storedEventTypes,
  toDeliveryRecord,
  toEndpointRecord,
  type ClaimedDelivery,
  type DeliveryRow,
  type EndpointRow,
  type NewEndpoint,
  type WebhookEndpointRecord,
  type WebhookRepository,
  webhookLabel,
} from "./webhook-repository.js";

const ENDPOINT_COLUMNS = `"id", "url", "description", "eventTypes", "enabled", "disabledReason", "createdAt", "createdBy", "secret", "previousSecret", "previousSecretUntil", "failingSince"`;
const DELIVERY_COLUMNS = `"id", "webhookId", "eventId", "eventType", "status", "createdAt", "attempts"`;
const DUE = `"status" = 'pending' AND "nextAttemptAt" <= ? AND ("claimedUntil" IS NULL OR "claimedUntil" < ?)`;

/** Webhook endpoints and deliveries on SQLite: prepared statements on the API's connection. */
export function createSqliteWebhookRepository(db: Sqlite.Database): WebhookRepository {
  let statements: ReturnType<typeof prepare> | undefined;
  const prepared = () => (statements ??= prepare(db));
  return {
    async listEndpoints() {
      return prepared().listEndpoints.all().map(toEndpointRecord);
    },
    async findEndpoint(id) {
      const row = prepared().endpointById.get(id);
      return row ? toEndpointRecord(row) : null;
    },
    async createEndpoint(endpoint, audit) {
      return prepared().createEndpoint.immediate(endpoint, audit);
    },
    async updateEndpoint(id, changes, audit) {
      return prepared().updateEndpoint.immediate(id, changes, audit);
    },
    async deleteEndpoint(id, audit) {
      return prepared().deleteEndpoint.immediate(id, audit);
    },
    async rotateSecret(id, secret, previousUntil, audit) {
      return prepared().rotateSecret.immediate(id, secret, previousUntil, audit);
    },
    async createTestDelivery(webhookId, eventId, data, at) {
      return toDeliveryRecord(prepared().insertDelivery.get(webhookId, eventId, "webhook.test", data, timestamp(at), timestamp(at))!);
    },
    async listDeliveries({ webhookId, take, before, status }) {
      const { list, listByStatus } = prepared();
      const rows =
        status === undefined
          ? list.all(webhookId, before ?? Number.MAX_SAFE_INTEGER, take)
          : listByStatus.all(webhookId, status, before ?? Number.MAX_SAFE_INTEGER, take);
      return rows.map(toDeliveryRecord);
    },
    async resendDelivery(webhookId, id, at) {
      const { resend, deliveryExists } = prepared();
      const when = timestamp(at);
      const row = resend.get(when, id, webhookId, when);
      if (row) return toDeliveryRecord(row);
      return deliveryExists.get(id, webhookId) ? "being sent" : null;
    },
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
      const rows = claim.all(timestamp(leaseUntil), claimToken, JSON.stringify(picked), at, at);
      const order = new Map(picked.map((id, index) => [id, index]));
      return rows
        .map((row): ClaimedDelivery => ({ ...row, id: Number(row.id), webhookId: Number(row.webhookId), createdAt: new Date(row.createdAt), claimToken }))
        .sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    },
    async recordOutcome(delivery, outcome) {
      prepared().recordOutcome.immediate(delivery, outcome);
    },
    async eraseEndedSecrets(now) {
      const { anyEndedSecret, eraseEndedSecrets } = prepared();
      const at = timestamp(now);
      // A read first: a sender with no overlap to end takes no write lock.
      if (anyEndedSecret.get(at)) eraseEndedSecrets.run(at);
    },
    async release(delivery) {
      prepared().release.run(delivery.id, delivery.claimToken);
    },
    async oldestPendingAt() {
      const { oldestPending, oldestEvent } = prepared();
      const times = [oldestPending.get()?.createdAt, oldestEvent.get()?.createdAt].filter((at): at is string => Boolean(at));
      return times.length ? new Date(times.sort()[0]!) : null;
    },
  };
}

type ClaimRow = Omit<ClaimedDelivery, "createdAt" | "claimToken"> & { createdAt: string };

function prepare(db: Sqlite.Database) {
  const recordEvent = sqliteActivityWriter(db);
  const audited = (action: "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.secret_rotated", endpoint: WebhookEndpointRecord, audit: AuditContext | undefined) => {
    if (audit) recordEvent(new Date(), action, { type: "webhook", id: endpoint.id, label: webhookLabel(endpoint) }, audit);
  };
  const endpointById = db.prepare<[number], EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM "WebhookEndpoint" WHERE "id" = ?`);
  const setEndpoint = (column: string) =>
    db.prepare<[unknown, number]>(`UPDATE "WebhookEndpoint" SET "${column}" = ? WHERE "id" = ?`);
  const setters = {
    url: setEndpoint("url"),
    description: setEndpoint("description"),
    eventTypes: setEndpoint("eventTypes"),
    enabled: setEndpoint("enabled"),
  };
  const enable = db.prepare<[number]>(`UPDATE "WebhookEndpoint" SET "disabledReason" = NULL, "failingSince" = NULL WHERE "id" = ?`);
  const insertEndpoint = db.prepare<[string, string | null, string, string, string, string], EndpointRow>(
    `INSERT INTO "WebhookEndpoint" ("url", "description", "eventTypes", "secret", "createdAt", "createdBy")
     VALUES (?, ?, ?, ?, ?, ?) RETURNING ${ENDPOINT_COLUMNS}`,
  );
  const createEndpoint = db.transaction((endpoint: NewEndpoint, audit: AuditContext | undefined) => {
    const { url, description, eventTypes, secret, createdBy } = endpoint;
    const created = toEndpointRecord(insertEndpoint.get(url, description, storedEventTypes(eventTypes), secret, timestamp(new Date()), createdBy)!);
    audited("webhook.created", created, audit);
    return created;
  });
  const rotate = db.prepare<[string, string, number], EndpointRow>(
    `UPDATE "WebhookEndpoint" SET "previousSecret" = "secret", "secret" = ?, "previousSecretUntil" = ?
     WHERE "id" = ? RETURNING ${ENDPOINT_COLUMNS}`,
  );
  const rotateSecret = db.transaction((id: number, secret: string, previousUntil: Date, audit: AuditContext | undefined) => {
    const row = rotate.get(secret, timestamp(previousUntil), id);
    if (!row) return null;
    const rotated = toEndpointRecord(row);
    audited("webhook.secret_rotated", rotated, audit);
    return rotated;
  });
  const updateEndpoint = db.transaction((id: number, changes: Parameters<WebhookRepository["updateEndpoint"]>[1], audit: AuditContext | undefined) => {
    if (!endpointById.get(id)) return null;
    if (changes.url !== undefined) setters.url.run(changes.url, id);
    if (changes.description !== undefined) setters.description.run(changes.description, id);
    if (changes.eventTypes !== undefined) setters.eventTypes.run(storedEventTypes(changes.eventTypes), id);
    if (changes.enabled !== undefined) {
      setters.enabled.run(changes.enabled ? 1 : 0, id);
      if (changes.enabled) enable.run(id);
    }
    const updated = toEndpointRecord(endpointById.get(id)!);
    audited("webhook.updated", updated, audit);
    return updated;
  });
  const deleteDeliveries = db.prepare<[number]>(`DELETE FROM "WebhookDelivery" WHERE "webhookId" = ?`);
  const deleteOne = db.prepare<[number]>(`DELETE FROM "WebhookEndpoint" WHERE "id" = ?`);
  const deleteEndpoint = db.transaction((id: number, audit: AuditContext | undefined) => {
    const row = endpointById.get(id);
    if (!row) return false;
    deleteDeliveries.run(id);
    deleteOne.run(id);
    audited("webhook.deleted", toEndpointRecord(row), audit);
    return true;
  });
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
  const disable = db.prepare<[string, number]>(`UPDATE "WebhookEndpoint" SET "enabled" = 0, "disabledReason" = ? WHERE "id" = ?`);
  const recordOutcome = db.transaction(
    (delivery: ClaimedDelivery, outcome: Parameters<WebhookRepository["recordOutcome"]>[1]) => {
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
    },
  );
  // The outbox is the audit rows after the cursor that carry an event (sqlite-activity-log.ts). SQLite
  // has one writer at a time and hands out ids under its lock, so ids are in commit order: nothing
  // behind the cursor can still commit, and the cursor never skips an event.
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
    listEndpoints: db.prepare<[], EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM "WebhookEndpoint" ORDER BY "id" DESC`),
    endpointById,
    createEndpoint,
    updateEndpoint,
    deleteEndpoint,
    rotateSecret,
    insertDelivery: db.prepare<[number, string, string, string, string, string], DeliveryRow>(
      `INSERT INTO "WebhookDelivery" ("webhookId", "eventId", "eventType", "data", "createdAt", "nextAttemptAt")
       VALUES (?, ?, ?, ?, ?, ?) RETURNING ${DELIVERY_COLUMNS}`,
    ),
    list: db.prepare<[number, number, number], DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM "WebhookDelivery" WHERE "webhookId" = ? AND "id" < ? ORDER BY "id" DESC LIMIT ?`,
    ),
    listByStatus: db.prepare<[number, string, number, number], DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM "WebhookDelivery" WHERE "webhookId" = ? AND "status" = ? AND "id" < ? ORDER BY "id" DESC LIMIT ?`,
    ),
    // A lease that ran out is no one's: its sender is gone, and the claim token it left is overwritten by the next claim.
    resend: db.prepare<[string, number, number, string], DeliveryRow>(
      `UPDATE "WebhookDelivery" SET "status" = 'pending', "nextAttemptAt" = ?
       WHERE "id" = ? AND "webhookId" = ? AND ("claimedUntil" IS NULL OR "claimedUntil" < ?) RETURNING ${DELIVERY_COLUMNS}`,
    ),
    deliveryExists: db.prepare<[number, number], { one: number }>(`SELECT 1 AS "one" FROM "WebhookDelivery" WHERE "id" = ? AND "webhookId" = ?`),
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
    anyEndedSecret: db.prepare<[string], { one: number }>(`SELECT 1 AS "one" FROM "WebhookEndpoint" WHERE "previousSecretUntil" <= ? LIMIT 1`),
    eraseEndedSecrets: db.prepare<[string]>(
      `UPDATE "WebhookEndpoint" SET "previousSecret" = NULL, "previousSecretUntil" = NULL WHERE "previousSecretUntil" <= ?`,
    ),
    recordOutcome,
    release: db.prepare<[number, string]>(
      `UPDATE "WebhookDelivery" SET "claimedUntil" = NULL, "claimToken" = NULL WHERE "id" = ? AND "claimToken" = ?`,
    ),
    oldestPending: db.prepare<[], { createdAt: string | null }>(
      `SELECT min("createdAt") AS "createdAt" FROM "WebhookDelivery" WHERE "status" = 'pending'`,
    ),
    cursor,
    fanOut,
    oldestEvent: db.prepare<[], { createdAt: string }>(
      `SELECT "at" AS "createdAt" FROM "AuditEvent" WHERE "id" > (SELECT "lastAuditEventId" FROM "WebhookFanOut" WHERE "id" = 1)
         AND "webhookEventId" IS NOT NULL ORDER BY "id" LIMIT 1`,
    ),
  };
}
