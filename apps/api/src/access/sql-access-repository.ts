import { randomBytes } from "node:crypto";
import type { ApiKey } from "@petstore/contract";
import { recordActivity } from "../activity/recorded-activity.js";
import {
  execute,
  firstRow,
  provider,
  raw,
  rows,
  sql,
  toDateOrNull,
  toNumber,
  toNumberOrNull,
  type SqlRunner,
  type SqlText,
  type SqlStatement,
  type SqlWork,
} from "../data/sql-work.js";
import {
  toApiKey,
  type AccessRepository,
  type ActiveKey,
  type ApiKeyRow,
  type KeyUseField,
} from "./access-repository.js";
import { KEY_COLUMNS, revokeKeyWork } from "./key-revocation.js";

type KeyRow = { id: unknown; name: string; scope: string; secretDigest: string; expiresAt: unknown };
type TokenRow = KeyRow & { sessionId: unknown; staffId: unknown; keyId: string | null };

/** The keys not revoked, with `where` added. */
const activeKeysWhere = (where: SqlStatement) =>
  sql`SELECT "id", "name", "scope", "secretDigest", "expiresAt" FROM "ApiKey" WHERE "revokedAt" IS NULL${where}`;

/**
 * The session tokens that are usable now: not expired, of a session that has not ended, whose person is
 * not disabled and whose key is not revoked; named by the person or the key. With `where` added.
 */
const activeTokensWhere = (where: SqlStatement) => sql`
  SELECT "t"."id", "t"."scope", "t"."digest" AS "secretDigest", "t"."expiresAt",
         "s"."id" AS "sessionId", "s"."staffId", "s"."keyId",
         coalesce("m"."name", "k"."name", 'Configured key ' || substr("s"."keyId", 12)) AS "name"
  FROM "SessionToken" AS "t"
  JOIN "StaffSession" AS "s" ON "s"."id" = "t"."sessionId"
  LEFT JOIN "StaffMember" AS "m" ON "m"."id" = "s"."staffId"
  LEFT JOIN "ApiKey" AS "k" ON "s"."keyId" = CAST("k"."id" AS TEXT)
  WHERE "t"."expiresAt" > ${new Date()} AND "s"."endedAt" IS NULL AND "m"."disabledAt" IS NULL AND "k"."revokedAt" IS NULL${where}`;

const toActiveKey = (row: KeyRow): ActiveKey => ({
  id: toNumber(row.id),
  name: row.name,
  scope: row.scope as ActiveKey["scope"],
  secretDigest: row.secretDigest,
  expiresAt: toDateOrNull(row.expiresAt),
});
const toActiveToken = (row: TokenRow): ActiveKey => ({
  ...toActiveKey(row),
  token: { sessionId: toNumber(row.sessionId), staffId: toNumberOrNull(row.staffId), keyId: row.keyId },
});

function* keyById(id: number): SqlWork<ApiKey | null> {
  const row = yield* firstRow<ApiKeyRow>(sql`SELECT ${KEY_COLUMNS} FROM "ApiKey" WHERE "id" = ${id}`);
  return row ? toApiKey(row) : null;
}

const USE_COLUMNS: Record<KeyUseField, SqlText> = {
  lastUsedAt: raw(`"lastUsedAt"`),
  lastDeprecatedUseAt: raw(`"lastDeprecatedUseAt"`),
};

/**
 * Issued keys, key sessions and the fingerprint salt, written once for both providers (decision 040). On
 * SQLite every transaction is `BEGIN IMMEDIATE`, serialised already; on PostgreSQL an UPDATE's row lock
 * (revokeKey's, in key-revocation.ts) gives the same answer as if it ran alone.
 */
export function createAccessRepository(runner: SqlRunner): AccessRepository {
  return {
    async keysVersion() {
      // Moves when a key is created or revoked, a session ends, or a person is disabled: what a replica must
      // take out of its set within 2 s. Not when a session token is bought (or an expired one swept): every
      // replica would reload every key at each one; a token a replica does not hold is looked up when first
      // presented (IssuedKeys.lookUp, bounded by the failure budget), and an expired one is refused by its expiry.
      // One statement, as every replica reads it every 2 s.
      const row = await runner.read(() =>
        firstRow<{ version: string }>(sql`
          SELECT CAST(count(*) AS TEXT) || ':' || CAST(coalesce(max("id"), 0) AS TEXT) || ':' || CAST(count("revokedAt") AS TEXT)
            || ':' || (SELECT CAST(count("endedAt") AS TEXT) FROM "StaffSession")
            || ':' || (SELECT CAST(count("disabledAt") AS TEXT) FROM "StaffMember") AS "version"
          FROM "ApiKey"`),
      );
      return row!.version;
    },
    activeKeys() {
      return runner.read(function* () {
        const keys = yield* rows<KeyRow>(activeKeysWhere(sql``));
        const tokens = yield* rows<TokenRow>(activeTokensWhere(sql``));
        return [...keys.map(toActiveKey), ...tokens.map(toActiveToken)];
      });
    },
    findActiveKey(secretDigest) {
      return runner.read(function* () {
        const key = yield* firstRow<KeyRow>(activeKeysWhere(sql` AND "secretDigest" = ${secretDigest}`));
        if (key) return toActiveKey(key);
        const token = yield* firstRow<TokenRow>(activeTokensWhere(sql` AND "t"."digest" = ${secretDigest}`));
        return token ? toActiveToken(token) : undefined;
      });
    },
    async listKeys({ take, before, createdByStaffId }) {
      const byStaff = createdByStaffId === undefined ? sql`` : sql` AND "createdByStaffId" = ${createdByStaffId}`;
      const found = await runner.read(() =>
        rows<ApiKeyRow>(sql`
          SELECT ${KEY_COLUMNS} FROM "ApiKey" WHERE "id" < ${before ?? Number.MAX_SAFE_INTEGER}${byStaff} ORDER BY "id" DESC LIMIT ${take}`),
      );
      return found.map(toApiKey);
    },
    getKey: (id) => runner.read(() => keyById(id)),
    createKey(key, audit) {
      return runner.transaction(function* () {
        const now = new Date();
        const row = yield* firstRow<ApiKeyRow>(sql`
          INSERT INTO "ApiKey" ("name", "scope", "prefix", "secretDigest", "createdAt", "createdBy", "createdByStaffId", "expiresAt")
          VALUES (${key.name}, ${key.scope}, ${key.prefix}, ${key.secretDigest}, ${now}, ${key.createdBy}, ${key.createdByStaffId}, ${key.expiresAt})
          RETURNING ${KEY_COLUMNS}`);
        const created = toApiKey(row!);
        yield* recordActivity(now, "key.created", { type: "key", id: created.id, label: created.name }, audit, created);
        return created;
      });
    },
    revokeKey(id, audit) {
      // Revoked already (or by a revoke racing this one): answered as it is, with no second event.
      return runner.transaction(function* () {
        return (yield* revokeKeyWork(id, new Date(), audit)) ?? (yield* keyById(id));
      });
    },
    keyFingerprintSalt() {
      const salt = randomBytes(32).toString("hex");
      // Of processes asking at once, the first insert wins; the others wait for it, then read its salt.
      return runner.transaction(function* () {
        yield* execute(
          sql`INSERT INTO "KeyFingerprintSalt" ("id", "salt") VALUES (1, ${salt}) ON CONFLICT ("id") DO NOTHING`,
        );
        return (yield* firstRow<{ salt: string }>(sql`SELECT "salt" FROM "KeyFingerprintSalt" WHERE "id" = 1`))!.salt;
      });
    },
    endConfiguredKeySessionsExcept(keep, at) {
      return runner.transaction(function* () {
        // One JSON parameter, not a statement per count of keys; each provider has its own function to read it.
        const kept = JSON.stringify(keep);
        const keptIds =
          (yield* provider()) === "sqlite"
            ? sql`json_each(${kept})`
            : sql`json_array_elements_text(CAST(${kept} AS json))`;
        return yield* execute(sql`
          UPDATE "StaffSession" SET "endedAt" = ${at}
          WHERE "keyId" LIKE 'configured-%' AND "endedAt" IS NULL AND "keyId" NOT IN (SELECT "value" FROM ${keptIds})`);
      });
    },
    async recordKeyUse(id, field, at) {
      await runner.transaction(() =>
        execute(sql`UPDATE "ApiKey" SET ${USE_COLUMNS[field]} = ${at} WHERE "id" = ${id}`),
      );
    },
  };
}
