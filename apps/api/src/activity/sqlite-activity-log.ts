import type Sqlite from "better-sqlite3";
import type { AuditAction } from "@petstore/contract";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import type { ActivityLog } from "./activity-log.js";
import { auditColumns, toAuditEvent, type AuditContext, type AuditEventRow, type AuditTarget } from "./audit-event.js";
import { ANY_SUBSCRIBER, newWebhookEventId, subscriptionPattern, webhookEventTypeOf } from "./webhook-outbox.js";

const EVENT_COLUMNS = `"id", "at", "action", "actorKeyId", "actorStaffId", "actorName", "targetType", "targetId", "targetLabel", "detail", "requestId", "clientAddress"`;

/**
 * Records what a change did, on the connection and inside the caller's transaction. With `data` (the
 * changed thing as the API answers it) and an action that is a webhook event type, the event also goes
 * into the webhook outbox (one row, when some endpoint subscribes to it), in the same transaction.
 */
export type SqliteActivityWriter = (at: Date, action: AuditAction, target: AuditTarget, context: AuditContext, data?: unknown) => void;

/**
 * The activity log's writer on SQLite: one prepared insert, run by the pet and
 * key repositories inside their own `db.transaction`, so the event commits with
 * the change. Whatever else a change must leave behind in the same transaction
 * (the webhook outbox's rows) is written here too.
 */
export function sqliteActivityWriter(db: Sqlite.Database): SqliteActivityWriter {
  const insert = db.prepare<[string, string, string | null, number | null, string, string, number, string, string | null, string | null, string | null]>(
    `INSERT INTO "AuditEvent" ("at", "action", "actorKeyId", "actorStaffId", "actorName", "targetType", "targetId", "targetLabel", "detail", "requestId", "clientAddress")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // One statement and at most one row: the senders fan it out to the endpoints later, off the request path.
  const outbox = db.prepare<[string, string, string, string, string]>(
    `INSERT INTO "WebhookEvent" ("eventId", "eventType", "data", "createdAt")
     SELECT ?, ?, ?, ? WHERE ${ANY_SUBSCRIBER} ?))`,
  );
  return (at, action, target, context, data) => {
    const c = auditColumns(action, target, context);
    insert.run(timestamp(at), c.action, c.actorKeyId, c.actorStaffId, c.actorName, c.targetType, c.targetId, c.targetLabel, c.detail, c.requestId, c.clientAddress);
    const eventType = data === undefined ? undefined : webhookEventTypeOf(action);
    if (eventType) outbox.run(newWebhookEventId(), eventType, JSON.stringify(data), timestamp(at), subscriptionPattern(eventType));
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
