import { LIST_STAFF_MAX, type ApiKey, type StaffMember, type StaffRole } from "@petstore/contract";
import type { AuditContext } from "../activity/audit-event.js";
import { recordActivity } from "../activity/recorded-activity.js";
import { revokeKeyWork } from "../access/key-revocation.js";
import {
  execute,
  firstRow,
  forUpdate,
  raw,
  rows,
  sql,
  toDate,
  toNumber,
  type SqlRunner,
  type SqlStatement,
  type SqlWork,
} from "../data/sql-work.js";
import {
  toPasskey,
  toPasskeyRecord,
  toSessionRecord,
  toStaffMember,
  type NewPasskey,
  type PasskeyRow,
  type SessionRow,
  type SsoIdentity,
  type SsoOutcome,
  type SsoRefusal,
  type StaffRepository,
  type StaffRow,
} from "./staff-repository.js";

const STAFF_COLUMNS = raw(`"id", "email", "name", "role", "createdAt", "createdBy", "lastSignInAt", "disabledAt"`);
const SESSION_COLUMNS = raw(
  `"id", "staffId", "keyId", "createdAt", "lastActiveAt", "expiresAt", "endedAt", "userAgent"`,
);
const PASSKEY_COLUMNS = raw(
  `"id", "staffId", "credentialId", "publicKey", "counter", "transports", "name", "createdAt", "lastUsedAt"`,
);

type SsoRow = StaffRow & { oidcIssuer: string | null; oidcSubject: string | null };

const staffWhere = (where: SqlStatement) => sql`SELECT ${STAFF_COLUMNS} FROM "StaffMember" WHERE ${where}`;
const ssoStaffWhere = (where: SqlStatement) =>
  sql`SELECT ${STAFF_COLUMNS}, "oidcIssuer", "oidcSubject" FROM "StaffMember" WHERE ${where}`;
const sessionWhere = (where: SqlStatement) => sql`SELECT ${SESSION_COLUMNS} FROM "StaffSession" WHERE ${where}`;
const passkeysOf = (staffId: number) =>
  sql`SELECT ${PASSKEY_COLUMNS} FROM "Passkey" WHERE "staffId" = ${staffId} ORDER BY "id"`;

const endInvitations = (staffId: number, at: Date) =>
  execute(sql`UPDATE "Invitation" SET "usedAt" = ${at} WHERE "staffId" = ${staffId} AND "usedAt" IS NULL`);
const endSessions = (staffId: number, at: Date) =>
  execute(sql`UPDATE "StaffSession" SET "endedAt" = ${at} WHERE "staffId" = ${staffId} AND "endedAt" IS NULL`);

function* hasPasskey(staffId: number): SqlWork<boolean> {
  return (yield* firstRow(sql`SELECT 1 AS "one" FROM "Passkey" WHERE "staffId" = ${staffId} LIMIT 1`)) !== undefined;
}

/**
 * The person an invitation may still let in: not disabled, never signed in (their invitations ended then;
 * one left open is refused like a used one). `lock`: `forUpdate()`, for a change that depends on it.
 */
function* invitedStaff(id: number, lock = raw("")): SqlWork<StaffMember | null> {
  const row = yield* firstRow<StaffRow>(
    sql`${staffWhere(sql`"id" = ${id} AND "disabledAt" IS NULL AND "lastSignInAt" IS NULL`)}${lock}`,
  );
  return row ? toStaffMember(row) : null;
}

/** Uses an unused, unexpired invitation up (once: on PostgreSQL a second use waits on the row, then finds it used). */
const useToken = (tokenDigest: string, now: Date, staffId?: number) =>
  firstRow<{ staffId: unknown }>(sql`
    UPDATE "Invitation" SET "usedAt" = ${now}
    WHERE "tokenDigest" = ${tokenDigest} AND "usedAt" IS NULL AND "expiresAt" > ${now}${staffId === undefined ? sql`` : sql` AND "staffId" = ${staffId}`}
    RETURNING "staffId"`);

function* insertPasskey(passkey: NewPasskey, at: Date): SqlWork<PasskeyRow> {
  const { staffId, credentialId, publicKey, counter, transports, name } = passkey;
  const row = yield* firstRow<PasskeyRow>(sql`
    INSERT INTO "Passkey" ("staffId", "credentialId", "publicKey", "counter", "transports", "name", "createdAt")
    VALUES (${staffId}, ${credentialId}, ${publicKey}, ${counter}, ${transports.join(" ")}, ${name}, ${at}) RETURNING ${PASSKEY_COLUMNS}`);
  return row!;
}

/** A new role, with `staff.role_changed`; their sessions end, as the tokens they bought carry the old role. */
function* setRole(id: number, role: StaffRole, at: Date, audit: AuditContext): SqlWork<StaffMember> {
  const row = yield* firstRow<StaffRow>(
    sql`UPDATE "StaffMember" SET "role" = ${role} WHERE "id" = ${id} RETURNING ${STAFF_COLUMNS}`,
  );
  const staff = toStaffMember(row!);
  yield* recordActivity(at, "staff.role_changed", { type: "staff", id, label: staff.name, detail: role }, audit);
  yield* endSessions(id, at);
  return staff;
}

type SsoRequest = Pick<AuditContext, "requestId" | "clientAddress">;

/** A single sign-on's decision (see `findOrCreateForSso`); `again`: whether a lost race may decide once more. */
function* singleSignOn(
  identity: SsoIdentity,
  now: Date,
  request: SsoRequest,
  again: boolean,
): SqlWork<SsoOutcome | SsoRefusal> {
  function* settle(row: SsoRow, how: SsoOutcome["how"]): SqlWork<SsoOutcome> {
    const staff = toStaffMember(row);
    if (staff.disabledAt !== null) return { staff, how, roleChanged: false };
    if (how === "joined") {
      yield* execute(
        sql`UPDATE "StaffMember" SET "oidcIssuer" = ${identity.issuer}, "oidcSubject" = ${identity.subject} WHERE "id" = ${staff.id}`,
      );
      // Joined: the link they were sent is no way in any more.
      yield* endInvitations(staff.id, now);
    }
    if (staff.role === identity.role) return { staff, how, roleChanged: false };
    const audit = { actor: { keyId: null, staffId: staff.id, name: staff.name }, ...request };
    return { staff: yield* setRole(staff.id, identity.role, now, audit), how, roleChanged: true };
  }
  const isThisIdentity = (row: SsoRow) => row.oidcIssuer === identity.issuer && row.oidcSubject === identity.subject;
  const tied = yield* firstRow<SsoRow>(
    ssoStaffWhere(sql`"oidcIssuer" = ${identity.issuer} AND "oidcSubject" = ${identity.subject}`),
  );
  if (tied) return yield* settle(tied, "tied");
  const email = identity.email.toLowerCase();
  // Locked: a passkey sign-in or an invitation's acceptance of this person waits for the decision.
  const holder = yield* firstRow<SsoRow>(sql`${ssoStaffWhere(sql`"email" = ${email}`)}${yield* forUpdate()}`);
  // Tied to this very identity by a first sign-in that committed since the look-up above (two at once).
  if (holder && isThisIdentity(holder)) return yield* settle(holder, "tied");
  if (holder && identity.emailVerified) {
    // A verified email joins only a person who is invited and nothing more: never signed in, no passkey,
    // no identity. Anyone else's account is not handed to whoever holds that email at the provider.
    const holderId = toNumber(holder.id);
    if (holder.oidcIssuer === null && holder.lastSignInAt === null && !(yield* hasPasskey(holderId)))
      return yield* settle(holder, "joined");
    return { refused: "account-exists", staffId: holderId };
  }
  // A unique index decides two first sign-ins at once: the loser's insert waits for the winner's commit,
  // then adds nothing (no error, which would end a PostgreSQL transaction), and the decision is made again
  // in this transaction, where the next statement sees the person the winner made.
  const created = yield* firstRow<StaffRow>(sql`
    INSERT INTO "StaffMember" ("email", "name", "role", "createdAt", "oidcIssuer", "oidcSubject")
    VALUES (${holder ? identity.fallbackEmail : email}, ${identity.name}, ${identity.role}, ${now}, ${identity.issuer}, ${identity.subject})
    ON CONFLICT DO NOTHING RETURNING ${STAFF_COLUMNS}`);
  if (created) return { staff: toStaffMember(created), how: "created", roleChanged: false };
  if (!again) throw new Error("single sign-on: the new person's email or identity is taken, twice");
  return yield* singleSignOn(identity, now, request, false);
}

/**
 * Staff, invitations, passkeys, sessions and tokens, written once for both providers (decision 040). On
 * SQLite every transaction is `BEGIN IMMEDIATE`, serialised already; on PostgreSQL the row locks below
 * (`forUpdate`, or an UPDATE's own) give each method the same answer as if it ran alone.
 */
export function createStaffRepository(runner: SqlRunner): StaffRepository {
  const one = async <Row, T>(statement: SqlStatement, map: (row: Row) => T): Promise<T | null> => {
    const row = await runner.read(() => firstRow<Row>(statement));
    return row ? map(row) : null;
  };
  const all = async <Row, T>(statement: SqlStatement, map: (row: Row) => T): Promise<T[]> =>
    (await runner.read(() => rows<Row>(statement))).map(map);

  return {
    listStaff: () =>
      all(sql`SELECT ${STAFF_COLUMNS} FROM "StaffMember" ORDER BY "id" DESC LIMIT ${LIST_STAFF_MAX}`, toStaffMember),
    getStaff: (id) => one(staffWhere(sql`"id" = ${id}`), toStaffMember),
    inviteStaff(member, invitation, audit) {
      return runner.transaction(function* () {
        const at = invitation.createdAt;
        // Locked: an invitation's acceptance (which locks the person first) cannot add a passkey in between.
        const existing = yield* firstRow<StaffRow>(
          sql`${staffWhere(sql`"email" = ${member.email}`)}${yield* forUpdate()}`,
        );
        let row: StaffRow | undefined;
        if (existing) {
          // Invited again (a lost or expired link): only a person who never signed in and holds no passkey.
          const id = toNumber(existing.id);
          if (existing.lastSignInAt !== null || existing.disabledAt !== null || (yield* hasPasskey(id)))
            return "email-taken" as const;
          yield* endInvitations(id, at);
          row = yield* firstRow<StaffRow>(
            sql`UPDATE "StaffMember" SET "name" = ${member.name}, "role" = ${member.role} WHERE "id" = ${id} RETURNING ${STAFF_COLUMNS}`,
          );
        } else {
          // The unique index decides a race (the loser's transaction fails); the read answers the common case.
          row = yield* firstRow<StaffRow>(sql`
            INSERT INTO "StaffMember" ("email", "name", "role", "createdAt", "createdBy")
            VALUES (${member.email}, ${member.name}, ${member.role}, ${at}, ${member.createdBy}) RETURNING ${STAFF_COLUMNS}`);
        }
        const staff = toStaffMember(row!);
        yield* execute(sql`
          INSERT INTO "Invitation" ("tokenDigest", "staffId", "createdAt", "expiresAt") VALUES (${invitation.tokenDigest}, ${staff.id}, ${at}, ${invitation.expiresAt})`);
        yield* recordActivity(
          at,
          "staff.invited",
          { type: "staff", id: staff.id, label: staff.name, detail: staff.role },
          audit,
        );
        return staff;
      });
    },
    findInvitation(tokenDigest, now) {
      return runner.read(function* () {
        const invitation = yield* firstRow<{ staffId: unknown; expiresAt: unknown }>(
          sql`SELECT "staffId", "expiresAt" FROM "Invitation" WHERE "tokenDigest" = ${tokenDigest} AND "usedAt" IS NULL AND "expiresAt" > ${now}`,
        );
        const staff = invitation ? yield* invitedStaff(toNumber(invitation.staffId)) : null;
        return staff && invitation ? { staff, expiresAt: toDate(invitation.expiresAt) } : null;
      });
    },
    useInvitation(tokenDigest, now) {
      return runner.transaction(function* () {
        const used = yield* useToken(tokenDigest, now);
        const staff = used ? yield* invitedStaff(toNumber(used.staffId)) : null;
        // One link at a time: any other open invitation of theirs ends too.
        if (staff) yield* endInvitations(staff.id, now);
        return staff;
      });
    },
    changeRole(id, role, audit) {
      return runner.transaction(function* () {
        // Locked: of two changes at once, the second sees the first's role (one event for each change).
        const before = yield* firstRow<StaffRow>(sql`${staffWhere(sql`"id" = ${id}`)}${yield* forUpdate()}`);
        if (!before) return null;
        if (before.role === role) return toStaffMember(before);
        return yield* setRole(id, role, new Date(), audit);
      });
    },
    disableStaff(id, audit, options) {
      return runner.transaction(function* () {
        const now = new Date();
        const disabled = yield* firstRow<StaffRow>(
          sql`UPDATE "StaffMember" SET "disabledAt" = ${now} WHERE "id" = ${id} AND "disabledAt" IS NULL RETURNING ${STAFF_COLUMNS}`,
        );
        const row = disabled ?? (yield* firstRow<StaffRow>(staffWhere(sql`"id" = ${id}`)));
        if (!row) return null;
        const staff = toStaffMember(row);
        if (disabled) {
          yield* recordActivity(now, "staff.disabled", { type: "staff", id, label: staff.name }, audit);
          yield* endSessions(id, now);
          yield* endInvitations(id, now);
        }
        // Their keys, as revokeKey revokes each (key.revoked, the key's sessions ended), in this transaction.
        const revokedKeys: ApiKey[] = [];
        if (options?.revokeKeys === true) {
          const keys = yield* rows<{ id: unknown }>(
            sql`SELECT "id" FROM "ApiKey" WHERE "createdByStaffId" = ${id} AND "revokedAt" IS NULL ORDER BY "id"`,
          );
          for (const key of keys) {
            const revoked = yield* revokeKeyWork(toNumber(key.id), now, audit);
            if (revoked) revokedKeys.push(revoked);
          }
        }
        return { staff, revokedKeys };
      });
    },
    findOrCreateForSso(identity, now, request) {
      return runner.transaction(() => singleSignOn(identity, now, request, true));
    },
    createSession(session, signIn) {
      return runner.transaction(function* () {
        const { digest, staffId, keyId, createdAt: at, expiresAt, userAgent } = session;
        const row = yield* firstRow<SessionRow>(sql`
          INSERT INTO "StaffSession" ("digest", "staffId", "keyId", "createdAt", "lastActiveAt", "expiresAt", "userAgent")
          VALUES (${digest}, ${staffId}, ${keyId}, ${at}, ${at}, ${expiresAt}, ${userAgent}) RETURNING ${SESSION_COLUMNS}`);
        if (staffId !== null) {
          yield* execute(sql`UPDATE "StaffMember" SET "lastSignInAt" = ${at} WHERE "id" = ${staffId}`);
          // A first sign-in, by any means, ends the person's open invitations.
          yield* endInvitations(staffId, at);
        }
        yield* recordActivity(at, signIn.action, { ...signIn.target, detail: signIn.detail }, signIn.audit);
        return toSessionRecord(row!);
      });
    },
    findSession: (digest) => one(sessionWhere(sql`"digest" = ${digest}`), toSessionRecord),
    getSession: (id) => one(sessionWhere(sql`"id" = ${id}`), toSessionRecord),
    listSessions: (staffId, now) =>
      all(
        sessionWhere(
          sql`"staffId" = ${staffId} AND "endedAt" IS NULL AND "expiresAt" > ${now} ORDER BY "id" DESC LIMIT 1000`,
        ),
        toSessionRecord,
      ),
    createToken({ digest, sessionId, scope, createdAt, expiresAt }) {
      return runner.transaction(function* () {
        yield* execute(
          sql`DELETE FROM "SessionToken" WHERE "sessionId" = ${sessionId} AND "expiresAt" <= ${createdAt}`,
        );
        yield* execute(sql`
          INSERT INTO "SessionToken" ("digest", "sessionId", "scope", "createdAt", "expiresAt") VALUES (${digest}, ${sessionId}, ${scope}, ${createdAt}, ${expiresAt})`);
        yield* execute(sql`UPDATE "StaffSession" SET "lastActiveAt" = ${createdAt} WHERE "id" = ${sessionId}`);
      });
    },
    endSession(id, audit, target) {
      return runner.transaction(function* () {
        const now = new Date();
        const ended = yield* firstRow<SessionRow>(
          sql`UPDATE "StaffSession" SET "endedAt" = ${now} WHERE "id" = ${id} AND "endedAt" IS NULL RETURNING ${SESSION_COLUMNS}`,
        );
        if (ended && audit && target) yield* recordActivity(now, "session.ended", target, audit);
        const row = ended ?? (yield* firstRow<SessionRow>(sessionWhere(sql`"id" = ${id}`)));
        return row ? toSessionRecord(row) : null;
      });
    },
    endStaffSessions(staffId, audit, label) {
      return runner.transaction(function* () {
        const now = new Date();
        const ended = yield* endSessions(staffId, now);
        if (ended > 0) yield* recordActivity(now, "session.ended", { type: "staff", id: staffId, label }, audit);
        return ended;
      });
    },
    listPasskeys: (staffId) => all(passkeysOf(staffId), toPasskey),
    async renamePasskey(staffId, id, name) {
      const row = await runner.transaction(() =>
        firstRow<PasskeyRow>(
          sql`UPDATE "Passkey" SET "name" = ${name} WHERE "id" = ${id} AND "staffId" = ${staffId} RETURNING ${PASSKEY_COLUMNS}`,
        ),
      );
      return row ? toPasskey(row) : null;
    },
    removePasskey(staffId, id, audit, label) {
      return runner.transaction(function* () {
        // Locks the person's passkeys, so two removals at once cannot leave none.
        const held = yield* rows<{ id: unknown }>(
          sql`SELECT "id" FROM "Passkey" WHERE "staffId" = ${staffId}${yield* forUpdate()}`,
        );
        if (!held.some((row) => toNumber(row.id) === id)) return null;
        if (held.length <= 1) return "last" as const;
        yield* execute(sql`DELETE FROM "Passkey" WHERE "id" = ${id}`);
        yield* recordActivity(new Date(), "passkey.removed", { type: "staff", id: staffId, label }, audit);
        return "removed" as const;
      });
    },
    addPasskey(passkey, audit, label) {
      return runner.transaction(function* () {
        const now = new Date();
        const row = yield* insertPasskey(passkey, now);
        yield* recordActivity(now, "passkey.added", { type: "staff", id: passkey.staffId, label }, audit);
        return toPasskeyRecord(row);
      });
    },
    acceptInvitation(tokenDigest, passkey, now, audit) {
      return runner.transaction(function* () {
        // The person locked first, as a single sign-on join locks them: of the two, one finds the other done.
        // Every refusal comes before the first write, so a refused ceremony changes nothing.
        const staff = yield* invitedStaff(passkey.staffId, yield* forUpdate());
        if (!staff || !(yield* useToken(tokenDigest, now, staff.id))) return null;
        yield* endInvitations(staff.id, now);
        yield* insertPasskey(passkey, now);
        yield* recordActivity(now, "passkey.added", { type: "staff", id: staff.id, label: staff.name }, audit);
        return staff;
      });
    },
    passkeyCredentials: (staffId) =>
      all(passkeysOf(staffId), (row: PasskeyRow) => {
        const { credentialId, transports } = toPasskeyRecord(row);
        return { credentialId, transports };
      }),
    findPasskey: (credentialId) =>
      one(sql`SELECT ${PASSKEY_COLUMNS} FROM "Passkey" WHERE "credentialId" = ${credentialId}`, toPasskeyRecord),
    async recordPasskeyUse(id, counter, at) {
      // 0 after 0 is an authenticator that keeps no counter; otherwise the counter must move forward.
      const moves = counter === 0 ? sql`"counter" <= 0` : sql`"counter" < ${counter}`;
      const changed = await runner.transaction(() =>
        execute(sql`UPDATE "Passkey" SET "counter" = ${counter}, "lastUsedAt" = ${at} WHERE "id" = ${id} AND ${moves}`),
      );
      return changed === 1;
    },
  };
}
