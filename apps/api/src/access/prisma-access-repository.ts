import { randomBytes } from "node:crypto";
import type { ApiKey } from "@petstore/contract";
import { Prisma, type PrismaClient } from "../generated/pg/client.js";
import type { AuditContext } from "../activity/audit-event.js";
import { recordActivity } from "../activity/prisma-activity-log.js";
import { toApiKey, type AccessRepository, type ActiveKey } from "./access-repository.js";

interface TokenRow {
  id: bigint;
  name: string;
  scope: string;
  secretDigest: string;
  expiresAt: Date;
  sessionId: bigint;
  staffId: bigint | null;
  keyId: string | null;
}

/** The usable session tokens (see sqlite-access-repository.ts), with `where` added. */
const activeTokens = (now: Date, where: Prisma.Sql) => Prisma.sql`
  SELECT "t"."id", "t"."scope", "t"."digest" AS "secretDigest", "t"."expiresAt",
         "s"."id" AS "sessionId", "s"."staffId", "s"."keyId",
         coalesce("m"."name", "k"."name", 'Configured key ' || substr("s"."keyId", 12)) AS "name"
  FROM "SessionToken" AS "t"
  JOIN "StaffSession" AS "s" ON "s"."id" = "t"."sessionId"
  LEFT JOIN "StaffMember" AS "m" ON "m"."id" = "s"."staffId"
  LEFT JOIN "ApiKey" AS "k" ON "s"."keyId" = "k"."id"::text
  WHERE "t"."expiresAt" > ${now.toISOString()}::timestamp AND "s"."endedAt" IS NULL AND "m"."disabledAt" IS NULL AND "k"."revokedAt" IS NULL ${where}`;

const toActiveToken = (row: TokenRow): ActiveKey => ({
  id: Number(row.id),
  name: row.name,
  scope: row.scope as ActiveKey["scope"],
  secretDigest: row.secretDigest,
  expiresAt: new Date(row.expiresAt),
  token: { sessionId: Number(row.sessionId), staffId: row.staffId === null ? null : Number(row.staffId), keyId: row.keyId },
});

const keyColumns = {
  id: true,
  name: true,
  scope: true,
  prefix: true,
  createdAt: true,
  createdBy: true,
  createdByStaffId: true,
  lastUsedAt: true,
  lastDeprecatedUseAt: true,
  expiresAt: true,
  revokedAt: true,
} as const;

type TransactionClient = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * Revokes one key inside the caller's transaction (revokeKey's, or disabling the person who made it):
 * its revokedAt, `key.revoked`, and the end of the browser sessions started with it (their tokens with
 * them). Null, and nothing written, when the key is revoked already or unknown.
 */
export async function revokeKeyIn(tx: TransactionClient, id: number, at: Date, audit: AuditContext): Promise<ApiKey | null> {
  // The row lock makes a concurrent second revoke wait, then find it revoked: one event, one revokedAt.
  const { count } = await tx.apiKey.updateMany({ where: { id: BigInt(id), revokedAt: null }, data: { revokedAt: at } });
  if (count !== 1) return null;
  const key = toApiKey(await tx.apiKey.findUniqueOrThrow({ select: keyColumns, where: { id: BigInt(id) } }));
  await recordActivity(tx, at, "key.revoked", { type: "key", id: key.id, label: key.name }, audit, key);
  await tx.staffSession.updateMany({ where: { keyId: String(key.id), endedAt: null }, data: { endedAt: at } });
  return key;
}

/** Issued keys on PostgreSQL, through Prisma's generated client. */
export function createPrismaAccessRepository(prisma: PrismaClient): AccessRepository {
  return {
    async keysVersion() {
      // Keys created or revoked, sessions ended, people disabled; not session tokens bought (see the SQLite one).
      const [row] = await prisma.$queryRaw<Array<{ version: string }>>`
        SELECT count(*)::text || ':' || coalesce(max("id"), 0)::text || ':' || count("revokedAt")::text
          || ':' || (SELECT count("endedAt")::text FROM "StaffSession")
          || ':' || (SELECT count("disabledAt")::text FROM "StaffMember") AS "version" FROM "ApiKey"`;
      return row?.version ?? "";
    },
    async activeKeys() {
      const [rows, tokens] = await Promise.all([
        prisma.apiKey.findMany({ select: { id: true, name: true, scope: true, secretDigest: true, expiresAt: true }, where: { revokedAt: null } }),
        prisma.$queryRaw<TokenRow[]>(activeTokens(new Date(), Prisma.empty)),
      ]);
      return [...rows.map((row): ActiveKey => ({ ...row, id: Number(row.id), scope: row.scope as ActiveKey["scope"] })), ...tokens.map(toActiveToken)];
    },
    async findActiveKey(secretDigest) {
      const key = await prisma.apiKey.findFirst({
        select: { id: true, name: true, scope: true, secretDigest: true, expiresAt: true },
        where: { secretDigest, revokedAt: null },
      });
      if (key) return { ...key, id: Number(key.id), scope: key.scope as ActiveKey["scope"] };
      const [token] = await prisma.$queryRaw<TokenRow[]>(activeTokens(new Date(), Prisma.sql`AND "t"."digest" = ${secretDigest}`));
      return token ? toActiveToken(token) : undefined;
    },
    async listKeys({ take, before, createdByStaffId }) {
      const where = {
        ...(before === undefined ? {} : { id: { lt: BigInt(before) } }),
        ...(createdByStaffId === undefined ? {} : { createdByStaffId: BigInt(createdByStaffId) }),
      };
      return (await prisma.apiKey.findMany({ select: keyColumns, where, orderBy: { id: "desc" }, take })).map(toApiKey);
    },
    async getKey(id) {
      const row = await prisma.apiKey.findUnique({ select: keyColumns, where: { id: BigInt(id) } });
      return row ? toApiKey(row) : null;
    },
    async createKey(key, audit) {
      return prisma.$transaction(async (tx) => {
        const now = new Date();
        const created = toApiKey(await tx.apiKey.create({ select: keyColumns, data: { ...key, createdByStaffId: key.createdByStaffId === null ? null : BigInt(key.createdByStaffId), createdAt: now } }));
        await recordActivity(tx, now, "key.created", { type: "key", id: created.id, label: created.name }, audit, created);
        return created;
      });
    },
    async revokeKey(id, audit) {
      return prisma.$transaction(async (tx) => {
        const revoked = await revokeKeyIn(tx, id, new Date(), audit);
        if (revoked) return revoked;
        const row = await tx.apiKey.findUnique({ select: keyColumns, where: { id: BigInt(id) } });
        return row ? toApiKey(row) : null;
      });
    },
    async keyFingerprintSalt() {
      await prisma.keyFingerprintSalt.createMany({ data: [{ id: 1, salt: randomBytes(32).toString("hex") }], skipDuplicates: true });
      return (await prisma.keyFingerprintSalt.findUniqueOrThrow({ where: { id: 1 } })).salt;
    },
    async endConfiguredKeySessionsExcept(keep, at) {
      const { count } = await prisma.staffSession.updateMany({
        where: { keyId: { startsWith: "configured-", notIn: [...keep] }, endedAt: null },
        data: { endedAt: at },
      });
      return count;
    },
    async recordKeyUse(id, field, at) {
      await prisma.apiKey.updateMany({ where: { id: BigInt(id) }, data: { [field]: at } });
    },
  };
}
