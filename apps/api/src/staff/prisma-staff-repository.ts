import { LIST_STAFF_MAX, type StaffMember } from "@petstore/contract";
import type { PrismaClient } from "../generated/pg/client.js";
import { recordActivity } from "../activity/prisma-activity-log.js";
import { revokeKeyIn } from "../access/prisma-access-repository.js";
import {
  toPasskey,
  toPasskeyRecord,
  toSessionRecord,
  toStaffMember,
  type DisabledStaff,
  type SsoOutcome,
  type SsoRefusal,
  type StaffRepository,
} from "./staff-repository.js";

const staffColumns = { id: true, email: true, name: true, role: true, createdAt: true, createdBy: true, lastSignInAt: true, disabledAt: true } as const;

/** Thrown inside acceptInvitation's transaction to roll it back; answered as null. */
const NOT_ACCEPTED = Symbol("invitation not accepted");

/** Staff, invitations, passkeys, sessions and tokens on PostgreSQL, through Prisma's generated client. */
export function createPrismaStaffRepository(prisma: PrismaClient): StaffRepository {
  function ssoInTransaction(...[identity, now, request]: Parameters<StaffRepository["findOrCreateForSso"]>): Promise<SsoOutcome | SsoRefusal> {
    return prisma.$transaction(async (tx): Promise<SsoOutcome | SsoRefusal> => {
      const settle = async (row: { id: bigint; role: string; disabledAt: Date | null }, how: SsoOutcome["how"]): Promise<SsoOutcome> => {
        const read = () => tx.staffMember.findUniqueOrThrow({ select: staffColumns, where: { id: row.id } });
        if (row.disabledAt !== null) return { staff: toStaffMember(await read()), how, roleChanged: false };
        if (how === "joined") {
          await tx.staffMember.update({ where: { id: row.id }, data: { oidcIssuer: identity.issuer, oidcSubject: identity.subject } });
          // Joined: the link they were sent is no way in any more.
          await tx.invitation.updateMany({ where: { staffId: row.id, usedAt: null }, data: { usedAt: now } });
        }
        if (row.role === identity.role) return { staff: toStaffMember(await read()), how, roleChanged: false };
        const staff = toStaffMember(await tx.staffMember.update({ select: staffColumns, where: { id: row.id }, data: { role: identity.role } }));
        const audit = { actor: { keyId: null, staffId: staff.id, name: staff.name }, ...request };
        await recordActivity(tx, now, "staff.role_changed", { type: "staff", id: staff.id, label: staff.name, detail: identity.role }, audit);
        await tx.staffSession.updateMany({ where: { staffId: row.id, endedAt: null }, data: { endedAt: now } });
        return { staff, how, roleChanged: true };
      };
      const select = { id: true, role: true, disabledAt: true, oidcIssuer: true, oidcSubject: true, lastSignInAt: true } as const;
      const tied = await tx.staffMember.findFirst({ select, where: { oidcIssuer: identity.issuer, oidcSubject: identity.subject } });
      if (tied) return settle(tied, "tied");
      const email = identity.email.toLowerCase();
      // Locked: a passkey sign-in or an invitation's acceptance of this person waits for the decision.
      const [locked] = await tx.$queryRaw<Array<{ id: bigint }>>`SELECT "id" FROM "StaffMember" WHERE "email" = ${email} FOR UPDATE`;
      const holder = locked ? await tx.staffMember.findUnique({ select, where: { id: locked.id } }) : null;
      // Tied to this very identity by a first sign-in that committed since the look-up above (two at once).
      if (holder && holder.oidcIssuer === identity.issuer && holder.oidcSubject === identity.subject) return settle(holder, "tied");
      if (holder && identity.emailVerified) {
        // A verified email joins only a person who is invited and nothing more: never signed in, no passkey,
        // no identity. Anyone else's account is not handed to whoever holds that email at the provider.
        const passkey = await tx.passkey.findFirst({ select: { id: true }, where: { staffId: holder.id } });
        if (holder.oidcIssuer === null && holder.lastSignInAt === null && !passkey) return settle(holder, "joined");
        return { refused: "account-exists", staffId: Number(holder.id) };
      }
      const staff = await tx.staffMember.create({
        select: staffColumns,
        data: {
          email: holder ? identity.fallbackEmail : email,
          name: identity.name,
          role: identity.role,
          createdAt: now,
          oidcIssuer: identity.issuer,
          oidcSubject: identity.subject,
        },
      });
      return { staff: toStaffMember(staff), how: "created", roleChanged: false };
    });
  }

  return {
    async listStaff() {
      return (await prisma.staffMember.findMany({ select: staffColumns, orderBy: { id: "desc" }, take: LIST_STAFF_MAX })).map(toStaffMember);
    },
    async getStaff(id) {
      const row = await prisma.staffMember.findUnique({ select: staffColumns, where: { id: BigInt(id) } });
      return row ? toStaffMember(row) : null;
    },
    async inviteStaff(member, invitation, audit) {
      return prisma.$transaction(async (tx) => {
        // The unique index decides a race; this read answers the common case without an error.
        const existing = await tx.staffMember.findUnique({ select: { id: true, lastSignInAt: true, disabledAt: true }, where: { email: member.email } });
        let staff: StaffMember;
        if (existing) {
          // Invited again (a lost or expired link): only a person who never signed in and holds no passkey.
          if (existing.lastSignInAt !== null || existing.disabledAt !== null) return "email-taken" as const;
          if (await tx.passkey.findFirst({ select: { id: true }, where: { staffId: existing.id } })) return "email-taken" as const;
          await tx.invitation.updateMany({ where: { staffId: existing.id, usedAt: null }, data: { usedAt: invitation.createdAt } });
          staff = toStaffMember(
            await tx.staffMember.update({ select: staffColumns, where: { id: existing.id }, data: { name: member.name, role: member.role } }),
          );
        } else {
          staff = toStaffMember(await tx.staffMember.create({ select: staffColumns, data: { ...member, createdAt: invitation.createdAt } }));
        }
        await tx.invitation.create({
          data: { tokenDigest: invitation.tokenDigest, staffId: BigInt(staff.id), createdAt: invitation.createdAt, expiresAt: invitation.expiresAt },
        });
        await recordActivity(tx, invitation.createdAt, "staff.invited", { type: "staff", id: staff.id, label: staff.name, detail: staff.role }, audit);
        return staff;
      });
    },
    async findInvitation(tokenDigest, now) {
      const row = await prisma.invitation.findFirst({ where: { tokenDigest, usedAt: null, expiresAt: { gt: now } } });
      if (!row) return null;
      // Signed in already: their invitations ended then (one left open is refused like a used one).
      const staff = await prisma.staffMember.findFirst({ select: staffColumns, where: { id: row.staffId, disabledAt: null, lastSignInAt: null } });
      return staff ? { staff: toStaffMember(staff), expiresAt: row.expiresAt } : null;
    },
    async useInvitation(tokenDigest, now) {
      return prisma.$transaction(async (tx) => {
        const row = await tx.invitation.findFirst({ select: { staffId: true }, where: { tokenDigest } });
        if (!row) return null;
        const { count } = await tx.invitation.updateMany({ where: { tokenDigest, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
        if (count !== 1) return null;
        const staff = await tx.staffMember.findFirst({ select: staffColumns, where: { id: row.staffId, disabledAt: null, lastSignInAt: null } });
        if (!staff) return null;
        await tx.invitation.updateMany({ where: { staffId: row.staffId, usedAt: null }, data: { usedAt: now } });
        return toStaffMember(staff);
      });
    },
    async changeRole(id, role, audit) {
      return prisma.$transaction(async (tx) => {
        const before = await tx.staffMember.findUnique({ select: staffColumns, where: { id: BigInt(id) } });
        if (!before) return null;
        if (before.role === role) return toStaffMember(before);
        const now = new Date();
        const staff = toStaffMember(await tx.staffMember.update({ select: staffColumns, where: { id: BigInt(id) }, data: { role } }));
        await recordActivity(tx, now, "staff.role_changed", { type: "staff", id, label: staff.name, detail: role }, audit);
        await tx.staffSession.updateMany({ where: { staffId: BigInt(id), endedAt: null }, data: { endedAt: now } });
        return staff;
      });
    },
    async disableStaff(id, audit, options) {
      return prisma.$transaction(async (tx): Promise<DisabledStaff | null> => {
        const now = new Date();
        const { count } = await tx.staffMember.updateMany({ where: { id: BigInt(id), disabledAt: null }, data: { disabledAt: now } });
        const row = await tx.staffMember.findUnique({ select: staffColumns, where: { id: BigInt(id) } });
        if (!row) return null;
        const staff = toStaffMember(row);
        if (count === 1) {
          await recordActivity(tx, now, "staff.disabled", { type: "staff", id, label: staff.name }, audit);
          await tx.staffSession.updateMany({ where: { staffId: BigInt(id), endedAt: null }, data: { endedAt: now } });
          await tx.invitation.updateMany({ where: { staffId: BigInt(id), usedAt: null }, data: { usedAt: now } });
        }
        const revokedKeys = [];
        if (options?.revokeKeys === true) {
          // Their keys, as revokeKey revokes each (key.revoked, the key's sessions ended), in this transaction.
          const keys = await tx.apiKey.findMany({ select: { id: true }, where: { createdByStaffId: BigInt(id), revokedAt: null }, orderBy: { id: "asc" } });
          for (const key of keys) {
            const revoked = await revokeKeyIn(tx, Number(key.id), now, audit);
            if (revoked) revokedKeys.push(revoked);
          }
        }
        return { staff, revokedKeys };
      });
    },
    async findOrCreateForSso(identity, now, request) {
      // Two first sign-ins of one identity at once: the loser's insert breaks the unique (issuer, sub)
      // index (or the email's); once more, it finds the person the winner made.
      try {
        return await ssoInTransaction(identity, now, request);
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code !== "P2002") throw error;
        return ssoInTransaction(identity, now, request);
      }
    },
    async createSession(session, signIn) {
      return prisma.$transaction(async (tx) => {
        const row = await tx.staffSession.create({
          data: {
            digest: session.digest,
            staffId: session.staffId === null ? null : BigInt(session.staffId),
            keyId: session.keyId,
            createdAt: session.createdAt,
            lastActiveAt: session.createdAt,
            expiresAt: session.expiresAt,
            userAgent: session.userAgent,
          },
        });
        if (session.staffId !== null) {
          const staffId = BigInt(session.staffId);
          await tx.staffMember.update({ where: { id: staffId }, data: { lastSignInAt: session.createdAt } });
          // A first sign-in, by any means, ends the person's open invitations.
          await tx.invitation.updateMany({ where: { staffId, usedAt: null }, data: { usedAt: session.createdAt } });
        }
        await recordActivity(tx, session.createdAt, signIn.action, { ...signIn.target, detail: signIn.detail }, signIn.audit);
        return toSessionRecord(row);
      });
    },
    async findSession(digest) {
      const row = await prisma.staffSession.findUnique({ where: { digest } });
      return row ? toSessionRecord(row) : null;
    },
    async getSession(id) {
      const row = await prisma.staffSession.findUnique({ where: { id: BigInt(id) } });
      return row ? toSessionRecord(row) : null;
    },
    async listSessions(staffId, now) {
      const rows = await prisma.staffSession.findMany({
        where: { staffId: BigInt(staffId), endedAt: null, expiresAt: { gt: now } },
        orderBy: { id: "desc" },
        take: 1000,
      });
      return rows.map(toSessionRecord);
    },
    async createToken(token) {
      const sessionId = BigInt(token.sessionId);
      await prisma.$transaction([
        prisma.sessionToken.deleteMany({ where: { sessionId, expiresAt: { lte: token.createdAt } } }),
        prisma.sessionToken.create({
          data: { digest: token.digest, sessionId, scope: token.scope, createdAt: token.createdAt, expiresAt: token.expiresAt },
        }),
        prisma.staffSession.update({ where: { id: sessionId }, data: { lastActiveAt: token.createdAt } }),
      ]);
    },
    async endSession(id, audit, target) {
      return prisma.$transaction(async (tx) => {
        const now = new Date();
        const { count } = await tx.staffSession.updateMany({ where: { id: BigInt(id), endedAt: null }, data: { endedAt: now } });
        const row = await tx.staffSession.findUnique({ where: { id: BigInt(id) } });
        if (!row) return null;
        if (count === 1 && audit && target) await recordActivity(tx, now, "session.ended", target, audit);
        return toSessionRecord(row);
      });
    },
    async endStaffSessions(staffId, audit, label) {
      return prisma.$transaction(async (tx) => {
        const now = new Date();
        const { count } = await tx.staffSession.updateMany({ where: { staffId: BigInt(staffId), endedAt: null }, data: { endedAt: now } });
        if (count > 0) await recordActivity(tx, now, "session.ended", { type: "staff", id: staffId, label }, audit);
        return count;
      });
    },
    async listPasskeys(staffId) {
      return (await prisma.passkey.findMany({ where: { staffId: BigInt(staffId) }, orderBy: { id: "asc" } })).map(toPasskey);
    },
    async renamePasskey(staffId, id, name) {
      const { count } = await prisma.passkey.updateMany({ where: { id: BigInt(id), staffId: BigInt(staffId) }, data: { name } });
      if (count !== 1) return null;
      const row = await prisma.passkey.findUnique({ where: { id: BigInt(id) } });
      return row ? toPasskey(row) : null;
    },
    async removePasskey(staffId, id, audit, label) {
      return prisma.$transaction(async (tx) => {
        // Locks the person's passkeys, so two removals at once cannot leave none.
        const rows = await tx.$queryRaw<Array<{ id: bigint }>>`SELECT "id" FROM "Passkey" WHERE "staffId" = ${BigInt(staffId)} FOR UPDATE`;
        if (!rows.some((row) => Number(row.id) === id)) return null;
        if (rows.length <= 1) return "last" as const;
        await tx.passkey.delete({ where: { id: BigInt(id) } });
        await recordActivity(tx, new Date(), "passkey.removed", { type: "staff", id: staffId, label }, audit);
        return "removed" as const;
      });
    },
    async addPasskey(passkey, audit, label) {
      return prisma.$transaction(async (tx) => {
        const now = new Date();
        const row = await tx.passkey.create({
          data: {
            staffId: BigInt(passkey.staffId),
            credentialId: passkey.credentialId,
            publicKey: passkey.publicKey,
            counter: BigInt(passkey.counter),
            transports: passkey.transports.join(" "),
            name: passkey.name,
            createdAt: now,
          },
        });
        await recordActivity(tx, now, "passkey.added", { type: "staff", id: passkey.staffId, label }, audit);
        return toPasskeyRecord(row);
      });
    },
    async acceptInvitation(tokenDigest, passkey, now, audit) {
      try {
        return await prisma.$transaction(async (tx) => {
          // Thrown, not returned: the transaction rolls back, and the invitation stays unused.
          const staffId = BigInt(passkey.staffId);
          // The person locked first, as a single sign-on join locks them: of the two, one finds the other done.
          await tx.$queryRaw`SELECT "id" FROM "StaffMember" WHERE "id" = ${staffId} FOR UPDATE`;
          const { count } = await tx.invitation.updateMany({ where: { tokenDigest, staffId, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
          if (count !== 1) throw NOT_ACCEPTED;
          const staff = await tx.staffMember.findFirst({ select: staffColumns, where: { id: staffId, disabledAt: null, lastSignInAt: null } });
          if (!staff) throw NOT_ACCEPTED;
          await tx.invitation.updateMany({ where: { staffId, usedAt: null }, data: { usedAt: now } });
          await tx.passkey.create({
            data: {
              staffId,
              credentialId: passkey.credentialId,
              publicKey: passkey.publicKey,
              counter: BigInt(passkey.counter),
              transports: passkey.transports.join(" "),
              name: passkey.name,
              createdAt: now,
            },
          });
          await recordActivity(tx, now, "passkey.added", { type: "staff", id: passkey.staffId, label: staff.name }, audit);
          return toStaffMember(staff);
        });
      } catch (error) {
        if (error === NOT_ACCEPTED) return null;
        throw error;
      }
    },
    async passkeyCredentials(staffId) {
      const rows = await prisma.passkey.findMany({ select: { credentialId: true, transports: true }, where: { staffId: BigInt(staffId) }, orderBy: { id: "asc" } });
      return rows.map((row) => ({ credentialId: row.credentialId, transports: row.transports === "" ? [] : row.transports.split(" ") }));
    },
    async findPasskey(credentialId) {
      const row = await prisma.passkey.findUnique({ where: { credentialId } });
      return row ? toPasskeyRecord(row) : null;
    },
    async recordPasskeyUse(id, counter, at) {
      const moves = counter === 0 ? { OR: [{ counter: { lt: 0n } }, { counter: 0n }] } : { counter: { lt: BigInt(counter) } };
      const { count } = await prisma.passkey.updateMany({ where: { id: BigInt(id), ...moves }, data: { counter: BigInt(counter), lastUsedAt: at } });
      return count === 1;
    },
  };
}
