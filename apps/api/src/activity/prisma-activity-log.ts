import type { AuditAction, AuditTargetType, PetFieldChange } from "@petstore/contract";
import { Prisma, type PrismaClient } from "../generated/pg/client.js";
import type { ActivityLog } from "./activity-log.js";
import { auditColumns, toAuditEvent, type AuditContext, type AuditTarget } from "./audit-event.js";
import { newWebhookEventId, webhookEventTypeOf, type WebhookEventType } from "./event-types.js";

type TransactionClient = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * The activity log's writer on PostgreSQL: one event, through `tx`, inside the
 * caller's transaction, so it commits with the change. With `data` (the changed
 * thing as the API answers it) and an action that is an event type, the event
 * also goes into the event log, in the same transaction (the senders fan it out later).
 */
export async function recordActivity(
  tx: TransactionClient,
  at: Date,
  action: AuditAction,
  target: AuditTarget,
  context: AuditContext,
  data?: unknown,
  changes?: readonly PetFieldChange[],
): Promise<void> {
  const columns = auditColumns(action, target, context);
  await tx.auditEvent.create({
    select: { id: true },
    data: {
      ...columns,
      actorStaffId: columns.actorStaffId === null ? null : BigInt(columns.actorStaffId),
      targetId: BigInt(columns.targetId),
      at,
      changes: changes ? JSON.stringify(changes) : null,
    },
  });
  const eventType = data === undefined ? undefined : webhookEventTypeOf(action);
  if (eventType) await tx.$executeRaw(eventInsert(eventType, Prisma.sql`SELECT ${JSON.stringify(data)}`, at));
}

/**
 * The event log's row of one event (docs/decisions/053-one-event-log.md), whether or not anyone
 * subscribes: `data` is a one-column query (or a `FROM rows` select) giving its JSON text. Its "xid" is
 * the transaction's own (the column's default).
 */
function eventInsert(eventType: WebhookEventType, data: Prisma.Sql, at: Date | undefined): Prisma.Sql {
  const when = at ? Prisma.sql`${at.toISOString()}::timestamp` : Prisma.sql`now() AT TIME ZONE 'UTC'`;
  return Prisma.sql`INSERT INTO "Event" ("eventId", "type", "createdAt", "data") SELECT ${newWebhookEventId()}, ${eventType}, ${when}, (${data})`;
}

/**
 * The event log's row for a change made in one statement, as a statement of its `WITH` query (as
 * `activityOfRows`): for the one row of the common table expression `rows`, whose data is the JSON
 * text `data` computes from that row's columns.
 */
export function eventOfRows(rows: string, eventType: WebhookEventType, data: Prisma.Sql): Prisma.Sql {
  const table = Prisma.raw(`"${rows.replaceAll('"', "")}"`);
  return eventInsert(eventType, Prisma.sql`SELECT ${data} FROM ${table}`, undefined);
}

/**
 * The same write as a statement of a `WITH` query, for a change made in one
 * statement (one round trip, atomic by itself): one event per row of the
 * common table expression `rows`, whose `"id"` and `"name"` columns are the
 * target's id and label.
 */
export function activityOfRows(
  rows: string,
  action: AuditAction,
  targetType: AuditTargetType,
  context: AuditContext,
  changes?: readonly PetFieldChange[],
): Prisma.Sql {
  const c = auditColumns(action, { type: targetType, id: 0, label: "" }, context);
  return Prisma.sql`
    INSERT INTO "AuditEvent" ("at", "action", "actorKeyId", "actorStaffId", "actorName", "targetType", "targetId", "targetLabel", "requestId", "clientAddress", "changes")
    SELECT now() AT TIME ZONE 'UTC', ${c.action}, ${c.actorKeyId}, ${c.actorStaffId === null ? null : BigInt(c.actorStaffId)}, ${c.actorName}, ${c.targetType}, "id", "name", ${c.requestId}, ${c.clientAddress}, ${changes ? JSON.stringify(changes) : null}
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
