import type { AuditAction, AuditEvent, AuditTargetType } from "@petstore/contract";

export interface AuditEventQuery {
  take: number;
  /** Only events with an id lower than this (newest first). */
  before?: number | undefined;
  action?: AuditAction | undefined;
  targetType?: AuditTargetType | undefined;
  targetId?: number | undefined;
}

/**
 * The activity log, read side. Its writes happen inside the transaction of
 * the change they record, through each provider's writer
 * (`sqlite-activity-log.ts`, `prisma-activity-log.ts`), which the pet and key
 * repositories call: what the log records commits with the change or not at all.
 */
export interface ActivityLog {
  /** Newest first. */
  listAuditEvents(query: AuditEventQuery): Promise<AuditEvent[]>;
}
