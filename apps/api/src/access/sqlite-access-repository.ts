import type Sqlite from "better-sqlite3";
import { LIST_KEYS_MAX, type ApiKey } from "@petstore/contract";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import type { AuditContext } from "../activity/audit-event.js";
import { sqliteActivityWriter } from "../activity/sqlite-activity-log.js";
import { toApiKey, type AccessRepository, type ActiveKey, type ApiKeyRow, type KeyUseField } from "./access-repository.js";

const KEY_COLUMNS = `"id", "name", "scope", "prefix", "createdAt", "createdBy", "lastUsedAt", "lastDeprecatedUseAt", "expiresAt", "revokedAt"`;

/**
 * Issued keys on SQLite: prepared better-sqlite3
 * statements on the API's connection, as pets/sqlite-pet-repository.ts does.
 */
export function createSqliteAccessRepository(db: Sqlite.Database): AccessRepository {
  let statements: ReturnType<typeof prepare> | undefined;
  const prepared = () => (statements ??= prepare(db));
  return {
    async keysVersion() {
      const row = prepared().version.get()!;
      return `${row.total}:${row.maxId ?? 0}:${row.revoked}`;
    },
    async activeKeys() {
      return prepared()
        .active.all()
        .map(
          (row): ActiveKey => ({
            id: row.id,
            name: row.name,
            scope: row.scope as ActiveKey["scope"],
            secretDigest: row.secretDigest,
            expiresAt: row.expiresAt === null ? null : new Date(row.expiresAt),
          }),
        );
    },
    async listKeys() {
      return prepared().list.all().map(toApiKey);
    },
    async createKey(key, audit) {
      return prepared().createKey.immediate(key, audit);
    },
    async revokeKey(id, audit) {
      return prepared().revokeKey.immediate(id, audit);
    },
    async recordKeyUse(id, field, at) {
      prepared().recordUse[field].run(timestamp(at), id);
    },
  };
}

function prepare(db: Sqlite.Database) {
  const recordEvent = sqliteActivityWriter(db);
  const insertKey = db.prepare<[string, string, string, string, string, string | null, string | null], ApiKeyRow>(
    `INSERT INTO "ApiKey" ("name", "scope", "prefix", "secretDigest", "createdAt", "createdBy", "expiresAt")
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${KEY_COLUMNS}`,
  );
  const byId = db.prepare<[number], ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM "ApiKey" WHERE "id" = ?`);
  const revoke = db.prepare<[string, number], ApiKeyRow>(
    `UPDATE "ApiKey" SET "revokedAt" = ? WHERE "id" = ? AND "revokedAt" IS NULL RETURNING ${KEY_COLUMNS}`,
  );
  const createKey = db.transaction((key: Parameters<AccessRepository["createKey"]>[0], audit: AuditContext): ApiKey => {
    const now = new Date();
    const created = toApiKey(
      insertKey.get(key.name, key.scope, key.prefix, key.secretDigest, timestamp(now), key.createdBy, key.expiresAt && timestamp(key.expiresAt))!,
    );
    recordEvent(now, "key.created", { type: "key", id: created.id, label: created.name }, audit, created);
    return created;
  });
  const revokeKey = db.transaction((id: number, audit: AuditContext): ApiKey | null => {
    const now = new Date();
    const revoked = revoke.get(timestamp(now), id);
    if (!revoked) {
      const existing = byId.get(id);
      return existing ? toApiKey(existing) : null;
    }
    const key = toApiKey(revoked);
    recordEvent(now, "key.revoked", { type: "key", id: key.id, label: key.name }, audit, key);
    return key;
  });
  const recordUse = (field: KeyUseField) => db.prepare<[string, number]>(`UPDATE "ApiKey" SET "${field}" = ? WHERE "id" = ?`);
  return {
    version: db.prepare<[], { total: number; maxId: number | null; revoked: number }>(
      `SELECT count(*) AS "total", max("id") AS "maxId", count("revokedAt") AS "revoked" FROM "ApiKey"`,
    ),
    active: db.prepare<[], { id: number; name: string; scope: string; secretDigest: string; expiresAt: string | null }>(
      `SELECT "id", "name", "scope", "secretDigest", "expiresAt" FROM "ApiKey" WHERE "revokedAt" IS NULL`,
    ),
    list: db.prepare<[], ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM "ApiKey" ORDER BY "id" DESC LIMIT ${LIST_KEYS_MAX}`),
    createKey,
    revokeKey,
    recordUse: { lastUsedAt: recordUse("lastUsedAt"), lastDeprecatedUseAt: recordUse("lastDeprecatedUseAt") },
  };
}
