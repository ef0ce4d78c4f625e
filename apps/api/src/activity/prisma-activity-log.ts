import type { AuditAction, AuditTargetType } from "@petstore/contract";
import { Prisma, type PrismaClient } from "../generated/pg/client.js";
import type { ActivityLog } from "./activity-log.js";
import { auditColumns, toAuditEvent, type AuditContext, type AuditTarget } from "./audit-event.js";

type TransactionClient = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * The activity log's writer on PostgreSQL: one event, through `tx`, inside the
 * caller's transaction, so it commits with the change. Whatever else a change
 * must leave behind in the same transaction (an outbox row for a webhook)
 * belongs here too.
 */
export function recordActivity(tx: TransactionClient, at: Date, action: AuditAction, target: AuditTarget, context: AuditContext) {
  const columns = auditColumns(action, target, context);
  return tx.auditEvent.create({ select: { id: true }, data: { ...columns, targetId: BigInt(columns.targetId), at } });
}

/**
 * The same write as a statement of a `WITH` query, for a change made in one
 * statement (one round trip, atomic by itself): one event per row of the
 * common table expression `rows`, whose `"id"` and `"name"` columns are the
 * target's id and label.
 */
export function activityOfRows(rows: string, action: AuditAction, targetType: AuditTargetType, context: AuditContext): Prisma.Sql {
  const c = auditColumns(action, { type: targetType, id: 0, label: "" }, context);
  return Prisma.sql`
    INSERT INTO "AuditEvent" ("at", "action", "actorKeyId", "actorName", "targetType", "targetId", "targetLabel", "requestId", "clientAddress")
    SELECT now() AT TIME ZONE 'UTC', ${c.action}, ${c.actorKeyId}, ${c.actorName}, ${c.targetType}, "id", "name", ${c.requestId}, ${c.clientAddress}
    FROM ${Prisma.raw(`"${rows.replaceAll('"', "")}"`)}`;
}

/** The activity log on PostgreSQL, through Prisma's generated client. */
export function createPrismaActivityLog(prisma: PrismaClient): ActivityLog {
  return {
    async listAuditEvents({ take, before, action, targetType, targetId }) {
      const rows = await prisma.auditEvent.findMany({
        where: {
          ...(before !== undefined ? { id: { lt: BigInt(before) } } : {}),
          ...(action !== undefined ? { action } : {}),
          ...(targetType !== undefined ? { targetType } : {}),
          ...(targetId !== undefined ? { targetId: BigInt(targetId) } : {}),
        },
        orderBy: { id: "desc" },
        take,
      });
      return rows.map(toAuditEvent);
    },
  };
}
