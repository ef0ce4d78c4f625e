import { LIST_KEYS_MAX } from "@petstore/contract";
import type { PrismaClient } from "../generated/pg/client.js";
import { recordActivity } from "../activity/prisma-activity-log.js";
import { toApiKey, type AccessRepository, type ActiveKey } from "./access-repository.js";

const keyColumns = {
  id: true,
  name: true,
  scope: true,
  prefix: true,
  createdAt: true,
  createdBy: true,
  lastUsedAt: true,
  lastDeprecatedUseAt: true,
  expiresAt: true,
  revokedAt: true,
} as const;

/** Issued keys on PostgreSQL, through Prisma's generated client. */
export function createPrismaAccessRepository(prisma: PrismaClient): AccessRepository {
  return {
    async keysVersion() {
      const [row] = await prisma.$queryRaw<Array<{ version: string }>>`
        SELECT count(*)::text || ':' || coalesce(max("id"), 0)::text || ':' || count("revokedAt")::text AS "version" FROM "ApiKey"`;
      return row?.version ?? "";
    },
    async activeKeys() {
      const rows = await prisma.apiKey.findMany({
        select: { id: true, name: true, scope: true, secretDigest: true, expiresAt: true },
        where: { revokedAt: null },
      });
      return rows.map((row): ActiveKey => ({ ...row, id: Number(row.id), scope: row.scope as ActiveKey["scope"] }));
    },
    async listKeys() {
      return (await prisma.apiKey.findMany({ select: keyColumns, orderBy: { id: "desc" }, take: LIST_KEYS_MAX })).map(toApiKey);
    },
    async createKey(key, audit) {
      return prisma.$transaction(async (tx) => {
        const now = new Date();
        const created = toApiKey(await tx.apiKey.create({ select: keyColumns, data: { ...key, createdAt: now } }));
        await recordActivity(tx, now, "key.created", { type: "key", id: created.id, label: created.name }, audit, created);
        return created;
      });
    },
    async revokeKey(id, audit) {
      return prisma.$transaction(async (tx) => {
        const now = new Date();
        // The row lock makes a concurrent second revoke wait, then find it revoked: one event, one revokedAt.
        const { count } = await tx.apiKey.updateMany({ where: { id: BigInt(id), revokedAt: null }, data: { revokedAt: now } });
        const row = await tx.apiKey.findUnique({ select: keyColumns, where: { id: BigInt(id) } });
        if (!row) return null;
        const key = toApiKey(row);
        if (count === 1) await recordActivity(tx, now, "key.revoked", { type: "key", id: key.id, label: key.name }, audit, key);
        return key;
      });
    },
    async recordKeyUse(id, field, at) {
      await prisma.apiKey.updateMany({ where: { id: BigInt(id) }, data: { [field]: at } });
    },
  };
}
