import type Sqlite from "better-sqlite3";
import type { AuditAction, PetFieldChange } from "@petstore/contract";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import type { ActivityLog } from "./activity-log.js";
import { auditColumns, toAuditEvent, type AuditContext, type AuditEventRow, type AuditTarget } from "./audit-event.js";
import { anySubscriber, newWebhookEventId, subscriptionPattern, webhookEventTypeOf } from "./webhook-outbox.js";


/**
 * Records what a change did, on the connection and inside the caller's transaction. With `data` (the
 * changed thing as the API answers it) and an action that is a webhook event type, the event also goes
 * into the webhook outbox, in the same row, when some enabled endpoint subscribes to it.
 */
export type SqliteActivityWriter = (at: Date, action: AuditAction, target: AuditTarget, context: AuditContext, data?: unknown, changes?: readonly PetFieldChange[]) => void;

const INSERT_COLUMNS = `"at", "action", "actorKeyId", "actorStaffId", "actorName", "targetType", "targetId", "targetLabel", "detail", "requestId", "clientAddress", "changes"`;
const EVENT_COLUMNS = `"id", "at", "action", "actorKeyId", "actorStaffId", "actorName", "targetType", "targetId", "targetLabel", "detail", "requestId", "clientAddress"`;

/**
 * The activity log's writer on SQLite: one prepared insert, run by the pet and
 * key repositories inside their own `db.transaction`, so the event commits with
 * the change.
 *
 * On SQLite the webhook outbox is the audit row itself: an event's `webhook-id` and JSON ride in its
 * `webhookEventId` and `webhookData` (null when no enabled endpoint subscribes), and the senders fan
 * rows out behind a cursor ("WebhookFanOut"). A row of its own would cost every create one more
 * page in the commit: measured, 7 % of createPet (docs/decisions/023-webhooks.md).
 */
export function sqliteActivityWriter(db: Sqlite.Database): SqliteActivityWriter {
  type Columns = [string, string, string | null, number | null, string, string, number, string, string | null, string | null, string | null, string | null];
  const insert = db.prepare<Columns>(`INSERT INTO "AuditEvent" (${INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // The subscription is read once, in the statement that writes the row: no second round through the
  // VM, and no outbox at all (both columns null) when nobody listens.
  const insertWithEvent = db.prepare<[string, ...Columns, string, string]>(
    `WITH "subscribed"("yes") AS (SELECT ${anySubscriber("?")})
     INSERT INTO "AuditEvent" (${INSERT_COLUMNS}, "webhookEventId", "webhookData")
     SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CASE WHEN "yes" THEN ? END, CASE WHEN "yes" THEN ? END FROM "subscribed"`,
  );
  return (at, action, target, context, data, changes) => {
    const c = auditColumns(action, target, context);
    const columns: Columns = [timestamp(at), c.action, c.actorKeyId, c.actorStaffId, c.actorName, c.targetType, c.targetId, c.targetLabel, c.detail, c.requestId, c.clientAddress, changes ? JSON.stringify(changes) : null];
    const eventType = data === undefined ? undefined : webhookEventTypeOf(action);
    if (eventType) insertWithEvent.run(subscriptionPattern(eventType), ...columns, newWebhookEventId(), JSON.stringify(data));
    else insert.run(...columns);
  };
}

/** The activity log on SQLite: prepared statements on the API's connection. */
export function createSqliteActivityLog(db: Sqlite.Database): ActivityLog {
  // At most 16 filter combinations: each is prepared once, on first use.
  const queries = new Map<string, Sqlite.Statement<Array<string | number>, AuditEventRow>>();
  return {
    async listAuditEvents({ take, before, action, targetType, targetId }) {
      const filters: Array<[string, string | number | undefined]> = [
        [`"id" < ?`, before],
        [`"action" = ?`, action],
        [`"targetType" = ?`, targetType],
        [`"targetId" = ?`, targetId],
      ];
      const present = filters.filter((filter): filter is [string, string | number] => filter[1] !== undefined);
      const where = present.map(([condition]) => condition);
      const values = present.map(([, value]) => value);
      const sql = `SELECT ${EVENT_COLUMNS} FROM "AuditEvent" ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY "id" DESC LIMIT ?`;
      let statement = queries.get(sql);
      if (!statement) queries.set(sql, (statement = db.prepare<Array<string | number>, AuditEventRow>(sql)));
      return statement.all(...values, take).map(toAuditEvent);
    },
  };
}
