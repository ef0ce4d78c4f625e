import type Sqlite from "better-sqlite3";
import type { AuditAction, PetFieldChange } from "@petstore/contract";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import type { ActivityLog } from "./activity-log.js";
import { auditColumns, toAuditEvent, type AuditContext, type AuditEventRow, type AuditTarget } from "./audit-event.js";
import { newWebhookEventId, webhookEventTypeOf } from "./event-types.js";

/**
 * Records what a change did, on the connection and inside the caller's transaction. With `data` (the
 * changed thing as the API answers it) and an action that is an event type, the event also goes into
 * the event log.
 */
export type SqliteActivityWriter = (
  at: Date,
  action: AuditAction,
  target: AuditTarget,
  context: AuditContext,
  data?: unknown,
  changes?: readonly PetFieldChange[],
) => void;

const INSERT_COLUMNS = `"at", "action", "actorKeyId", "actorStaffId", "actorName", "targetType", "targetId", "targetLabel", "detail", "requestId", "clientAddress", "changes"`;
const EVENT_COLUMNS = `"id", "at", "action", "actorKeyId", "actorStaffId", "actorName", "targetType", "targetId", "targetLabel", "detail", "requestId", "clientAddress"`;

/**
 * The activity log's writer on SQLite: prepared inserts, run by the pet and key repositories inside
 * their own `db.transaction`, so the event commits with the change.
 *
 * A change that is an event of the log (`pet.*`, `key.*`, with its data) also writes its "Event" row
 * (docs/decisions/053-one-event-log.md), whether or not anyone subscribes: the feed, the streams,
 * recovery and the webhook fan-out read it there.
 */
export function sqliteActivityWriter(db: Sqlite.Database): SqliteActivityWriter {
  type Columns = [
    string,
    string,
    string | null,
    number | null,
    string,
    string,
    number,
    string,
    string | null,
    string | null,
    string | null,
    string | null,
  ];
  const insert = db.prepare<Columns>(
    `INSERT INTO "AuditEvent" (${INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertEvent = db.prepare<[string, string, string, string]>(
    `INSERT INTO "Event" ("eventId", "type", "createdAt", "data") VALUES (?, ?, ?, ?)`,
  );
  return (at, action, target, context, data, changes) => {
    const c = auditColumns(action, target, context);
    insert.run(
      timestamp(at),
      c.action,
      c.actorKeyId,
      c.actorStaffId,
      c.actorName,
      c.targetType,
      c.targetId,
      c.targetLabel,
      c.detail,
      c.requestId,
      c.clientAddress,
      changes ? JSON.stringify(changes) : null,
    );
    const eventType = data === undefined ? undefined : webhookEventTypeOf(action);
    if (eventType) insertEvent.run(newWebhookEventId(), eventType, timestamp(at), JSON.stringify(data));
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
