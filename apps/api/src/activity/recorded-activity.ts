import type { AuditAction, PetFieldChange } from "@petstore/contract";
import { extension, type SqlWork } from "../data/sql-work.js";
import type { AuditContext, AuditTarget } from "./audit-event.js";

/** The name the activity log's writer is given to each provider's SQL runner under (database.ts). */
export const ACTIVITY_EXTENSION = "activity";

/**
 * What the writer takes: when, what, on what, by whom, the changed thing for a webhook event, and for a
 * pet's change the fields it moved (its history).
 */
export type ActivityArgs = [
  at: Date,
  action: AuditAction,
  target: AuditTarget,
  context: AuditContext,
  data?: unknown,
  changes?: readonly PetFieldChange[],
];

/**
 * Records what a change did, inside the unit of work making it (data/sql-work.ts), so it commits with
 * the change: each provider's hand-written writer (`sqlite-activity-log.ts`, `prisma-activity-log.ts`),
 * the event log included.
 */
export function* recordActivity(...args: ActivityArgs): SqlWork<void> {
  yield* extension(ACTIVITY_EXTENSION, args);
}
