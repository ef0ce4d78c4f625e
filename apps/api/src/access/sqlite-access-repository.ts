import type Sqlite from "better-sqlite3";
import { randomBytes } from "node:crypto";
import type { ApiKey } from "@petstore/contract";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import type { AuditContext } from "../activity/audit-event.js";
import { sqliteActivityWriter } from "../activity/sqlite-activity-log.js";
import { toApiKey, type AccessRepository, type ActiveKey, type ApiKeyRow, type KeyUseField } from "./access-repository.js";

const KEY_COLUMNS = `"id", "name", "scope", "prefix", "createdAt", "createdBy", "createdByStaffId", "lastUsedAt", "lastDeprecatedUseAt", "expiresAt", "revokedAt"`;

type KeyRow = { id: number; name: string; scope: string; secretDigest: string; expiresAt: string | null };
type TokenRow = KeyRow & { sessionId: number; staffId: number | null; keyId: string | null };

/**
 * The session tokens that are usable: not expired (the parameter: now), of a session that has not ended,
 * whose person is not disabled and whose key is not revoked; named by the person or the key.
 */
const ACTIVE_TOKENS = `
  SELECT "t"."id", "t"."scope", "t"."digest" AS "secretDigest", "t"."expiresAt",
         "s"."id" AS "sessionId", "s"."staffId", "s"."keyId",
         coalesce("m"."name", "k"."name", 'Configured key ' || substr("s"."keyId", 12)) AS "name"
  FROM "SessionToken" AS "t"
  JOIN "StaffSession" AS "s" ON "s"."id" = "t"."sessionId"
  LEFT JOIN "StaffMember" AS "m" ON "m"."id" = "s"."staffId"
  LEFT JOIN "ApiKey" AS "k" ON "s"."keyId" = CAST("k"."id" AS TEXT)
  WHERE "t"."expiresAt" > ? AND "s"."endedAt" IS NULL AND "m"."disabledAt" IS NULL AND "k"."revokedAt" IS NULL`;

const toActiveKey = (row: KeyRow): ActiveKey => ({
  id: row.id,
  name: row.name,
  scope: row.scope as ActiveKey["scope"],
  secretDigest: row.secretDigest,
  expiresAt: row.expiresAt === null ? null : new Date(row.expiresAt),
});
const toActiveToken = (row: TokenRow): ActiveKey => ({
  ...toActiveKey(row),
  token: { sessionId: row.sessionId, staffId: row.staffId, keyId: row.keyId },
});

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
      return `${row.total}:${row.maxId ?? 0}:${row.revoked}:${row.ended}:${row.disabled}`;
    },
    async activeKeys() {
      const { active, activeTokens } = prepared();
      return [...active.all().map(toActiveKey), ...activeTokens.all(timestamp(new Date())).map(toActiveToken)];
    },
    async findActiveKey(secretDigest) {
      const { activeByDigest, activeTokenByDigest } = prepared();
      const key = activeByDigest.get(secretDigest);
      if (key) return toActiveKey(key);
      const token = activeTokenByDigest.get(timestamp(new Date()), secretDigest);
      return token ? toActiveToken(token) : undefined;
    },
    async listKeys({ take, before, createdByStaffId }) {
      const { list, listByStaff } = prepared();
      const below = before ?? Number.MAX_SAFE_INTEGER;
      const rows = createdByStaffId === undefined ? list.all(below, take) : listByStaff.all(createdByStaffId, below, take);
      return rows.map(toApiKey);
    },
    async getKey(id) {
      const row = prepared().byId.get(id);
      return row ? toApiKey(row) : null;
    },
    async createKey(key, audit) {
      return prepared().createKey.immediate(key, audit);
    },
    async revokeKey(id, audit) {
      return prepared().revokeKey.immediate(id, audit);
    },
    async keyFingerprintSalt() {
      const { insertSalt, salt } = prepared();
      insertSalt.run(randomBytes(32).toString("hex"));
      return salt.get()!.salt;
    },
    async endConfiguredKeySessionsExcept(keep, at) {
      // One JSON parameter, not a statement per count of keys.
      return prepared().endConfiguredKeySessions.run(timestamp(at), JSON.stringify(keep)).changes;
    },
    async recordKeyUse(id, field, at) {
      prepared().recordUse[field].run(timestamp(at), id);
    },
  };
}

/**
 * Revokes one key inside the caller's transaction (revokeKey's, or disabling the person who made it):
 * its revokedAt, `key.revoked`, and the end of the browser sessions started with it (their tokens with
 * them). Null, and nothing written, when the key is revoked already or unknown.
 */
export function sqliteKeyRevoker(db: Sqlite.Database): (id: number, at: Date, audit: AuditContext) => ApiKey | null {
  const recordEvent = sqliteActivityWriter(db);
  const revoke = db.prepare<[string, number], ApiKeyRow>(
    `UPDATE "ApiKey" SET "revokedAt" = ? WHERE "id" = ? AND "revokedAt" IS NULL RETURNING ${KEY_COLUMNS}`,
  );
  const endKeySessions = db.prepare<[string, string]>(`UPDATE "StaffSession" SET "endedAt" = ? WHERE "keyId" = ? AND "endedAt" IS NULL`);
  return (id, at, audit) => {
    const revoked = revoke.get(timestamp(at), id);
    if (!revoked) return null;
    const key = toApiKey(revoked);
    recordEvent(at, "key.revoked", { type: "key", id: key.id, label: key.name }, audit, key);
    endKeySessions.run(timestamp(at), String(key.id));
    return key;
  };
}

function prepare(db: Sqlite.Database) {
  const recordEvent = sqliteActivityWriter(db);
  const insertKey = db.prepare<[string, string, string, string, string, string | null, number | null, string | null], ApiKeyRow>(
    `INSERT INTO "ApiKey" ("name", "scope", "prefix", "secretDigest", "createdAt", "createdBy", "createdByStaffId", "expiresAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${KEY_COLUMNS}`,
  );
  const byId = db.prepare<[number], ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM "ApiKey" WHERE "id" = ?`);
  const revokeOne = sqliteKeyRevoker(db);
  const createKey = db.transaction((key: Parameters<AccessRepository["createKey"]>[0], audit: AuditContext): ApiKey => {
    const now = new Date();
    const created = toApiKey(
      insertKey.get(
        key.name,
        key.scope,
        key.prefix,
        key.secretDigest,
        timestamp(now),
        key.createdBy,
        key.createdByStaffId,
        key.expiresAt && timestamp(key.expiresAt),
      )!,
    );
    recordEvent(now, "key.created", { type: "key", id: created.id, label: created.name }, audit, created);
    return created;
  });
  const revokeKey = db.transaction((id: number, audit: AuditContext): ApiKey | null => {
    const revoked = revokeOne(id, new Date(), audit);
    if (revoked) return revoked;
    const existing = byId.get(id);
    return existing ? toApiKey(existing) : null;
  });
  const recordUse = (field: KeyUseField) => db.prepare<[string, number]>(`UPDATE "ApiKey" SET "${field}" = ? WHERE "id" = ?`);
  return {
    // Moves when a key is created or revoked, a session ends, or a person is disabled: what a replica must
    // take out of its set within 2 s. Not when a session token is bought (or an expired one swept): every
    // replica would reload every key at each one; a token a replica does not hold is looked up when first
    // presented (IssuedKeys.lookUp, bounded by the failure budget), and an expired one is refused by its expiry.
    version: db.prepare<[], { total: number; maxId: number | null; revoked: number; ended: number; disabled: number }>(
      `SELECT count(*) AS "total", max("id") AS "maxId", count("revokedAt") AS "revoked",
         (SELECT count("endedAt") FROM "StaffSession") AS "ended",
         (SELECT count("disabledAt") FROM "StaffMember") AS "disabled"
       FROM "ApiKey"`,
    ),
    active: db.prepare<[], KeyRow>(`SELECT "id", "name", "scope", "secretDigest", "expiresAt" FROM "ApiKey" WHERE "revokedAt" IS NULL`),
    activeByDigest: db.prepare<[string], KeyRow>(
      `SELECT "id", "name", "scope", "secretDigest", "expiresAt" FROM "ApiKey" WHERE "secretDigest" = ? AND "revokedAt" IS NULL`,
    ),
    activeTokens: db.prepare<[string], TokenRow>(`${ACTIVE_TOKENS}`),
    activeTokenByDigest: db.prepare<[string, string], TokenRow>(`${ACTIVE_TOKENS} AND "t"."digest" = ?`),
    byId,
    list: db.prepare<[number, number], ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM "ApiKey" WHERE "id" < ? ORDER BY "id" DESC LIMIT ?`),
    listByStaff: db.prepare<[number, number, number], ApiKeyRow>(
      `SELECT ${KEY_COLUMNS} FROM "ApiKey" WHERE "createdByStaffId" = ? AND "id" < ? ORDER BY "id" DESC LIMIT ?`,
    ),
    createKey,
    revokeKey,
    insertSalt: db.prepare<[string]>(`INSERT INTO "KeyFingerprintSalt" ("id", "salt") VALUES (1, ?) ON CONFLICT ("id") DO NOTHING`),
    salt: db.prepare<[], { salt: string }>(`SELECT "salt" FROM "KeyFingerprintSalt" WHERE "id" = 1`),
    endConfiguredKeySessions: db.prepare<[string, string]>(
      `UPDATE "StaffSession" SET "endedAt" = ?
       WHERE "keyId" LIKE 'configured-%' AND "endedAt" IS NULL AND "keyId" NOT IN (SELECT "value" FROM json_each(?))`,
    ),
    recordUse: { lastUsedAt: recordUse("lastUsedAt"), lastDeprecatedUseAt: recordUse("lastDeprecatedUseAt") },
  };
}
