import type Sqlite from "better-sqlite3";
import type { AuditAction } from "@petstore/contract";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import type { ActivityLog } from "./activity-log.js";
import { auditColumns, toAuditEvent, type AuditContext, type AuditEventRow, type AuditTarget } from "./audit-event.js";

const EVENT_COLUMNS = `"id", "at", "action", "actorKeyId", "actorName", "targetType", "targetId", "targetLabel", "requestId", "clientAddress"`;

/** Records what a change did, on the connection and inside the caller's transaction. */
export type SqliteActivityWriter = (at: Date, action: AuditAction, target: AuditTarget, context: AuditContext) => void;

/**
 * The activity log's writer on SQLite: one prepared insert, run by the pet and
 * key repositories inside their own `db.transaction`, so the event commits with
 * the change. Whatever else a change must leave behind in the same transaction
 * (an outbox row for a webhook) belongs here too.
 */
export function sqliteActivityWriter(db: Sqlite.Database): SqliteActivityWriter {
  const insert = db.prepare<[string, string, string, string, string, number, string, string | null, string | null]>(
    `INSERT INTO "AuditEvent" ("at", "action", "actorKeyId", "actorName", "targetType", "targetId", "targetLabel", "requestId", "clientAddress")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return (at, action, target, context) => {
    const c = auditColumns(action, target, context);
    insert.run(timestamp(at), c.action, c.actorKeyId, c.actorName, c.targetType, c.targetId, c.targetLabel, c.requestId, c.clientAddress);
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
