import type { AuditAction, AuditActor, AuditEvent, AuditTargetType } from "@petstore/contract";

/**
 * Who made a change, and through which request: what every audit event
 * records beside its action and target. The repositories write the event in
 * the transaction of the change itself.
 */
export interface AuditContext {
  actor: AuditActor;
  /** The response's `X-Request-Id`; null when no request made the change (the operator command). */
  requestId: string | null;
  clientAddress: string | null;
}

/** The actor of changes made by the operator command (`keys create|revoke`). */
export const OPERATOR_ACTOR: AuditActor = { keyId: "operator", staffId: null, name: "Operator command" };
export const OPERATOR_CONTEXT: AuditContext = { actor: OPERATOR_ACTOR, requestId: null, clientAddress: null };

/** An AuditEvent row as both databases return it (int64 columns as bigint or number, `at` as Date or text). */
export interface AuditEventRow {
  id: number | bigint;
  at: Date | string;
  action: string;
  actorKeyId: string | null;
  actorStaffId: number | bigint | null;
  actorName: string;
  targetType: string;
  targetId: number | bigint;
  targetLabel: string;
  detail: string | null;
  requestId: string | null;
  clientAddress: string | null;
}

export const toIsoString = (value: Date | string): string => new Date(value).toISOString();

export function toAuditEvent(row: AuditEventRow): AuditEvent {
  return {
    id: Number(row.id),
    at: toIsoString(row.at),
    action: row.action as AuditAction,
    actor: {
      keyId: row.actorKeyId,
      staffId: row.actorStaffId === null ? null : Number(row.actorStaffId),
      name: row.actorName,
    },
    target: { type: row.targetType as AuditTargetType, id: Number(row.targetId), label: row.targetLabel },
    detail: row.detail,
    requestId: row.requestId,
    clientAddress: row.clientAddress,
  };
}

/** What an event is about: its type, id, and its name at the time (the label); `detail`, a short word that says more. */
export interface AuditTarget {
  type: AuditTargetType;
  id: number;
  label: string;
  detail?: string | null;
}

/** The columns of one new event, in the order the SQLite statements take them. */
export function auditColumns(action: AuditAction, target: AuditTarget, context: AuditContext) {
  return {
    action,
    actorKeyId: context.actor.keyId,
    actorStaffId: context.actor.staffId,
    actorName: context.actor.name,
    targetType: target.type,
    targetId: target.id,
    targetLabel: target.label,
    detail: target.detail ?? null,
    requestId: context.requestId,
    clientAddress: context.clientAddress,
  };
}
