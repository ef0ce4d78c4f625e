import type { ApiKey } from "@petstore/contract";
import { recordActivity } from "../activity/recorded-activity.js";
import type { AuditContext } from "../activity/audit-event.js";
import { execute, firstRow, raw, sql, type SqlWork } from "../data/sql-work.js";
import { toApiKey, type ApiKeyRow } from "./access-repository.js";

/** The columns of an issued key as `toApiKey` reads them. */
export const KEY_COLUMNS = raw(
  `"id", "name", "scope", "prefix", "createdAt", "createdBy", "createdByStaffId", "lastUsedAt", "lastDeprecatedUseAt", "expiresAt", "revokedAt"`,
);

/**
 * Revokes an issued key inside the caller's unit of work (revokeKey, and disableStaff's "revoke their
 * keys"): one `key.revoked` event, and every browser session started with the key ends. Null when there
 * is no such key or it was revoked already. On PostgreSQL the UPDATE's row lock makes a second revoke
 * racing this one wait, then find it revoked: one event, one `revokedAt`.
 */
export function* revokeKeyWork(id: number, at: Date, audit: AuditContext): SqlWork<ApiKey | null> {
  const revoked = yield* firstRow<ApiKeyRow>(
    sql`UPDATE "ApiKey" SET "revokedAt" = ${at} WHERE "id" = ${id} AND "revokedAt" IS NULL RETURNING ${KEY_COLUMNS}`,
  );
  if (!revoked) return null;
  const key = toApiKey(revoked);
  yield* recordActivity(at, "key.revoked", { type: "key", id: key.id, label: key.name }, audit, key);
  yield* execute(
    sql`UPDATE "StaffSession" SET "endedAt" = ${at} WHERE "keyId" = ${String(key.id)} AND "endedAt" IS NULL`,
  );
  return key;
}
