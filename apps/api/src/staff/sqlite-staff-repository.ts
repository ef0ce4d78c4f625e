import type Sqlite from "better-sqlite3";
import { LIST_STAFF_MAX, type StaffMember } from "@petstore/contract";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import { sqliteActivityWriter } from "../activity/sqlite-activity-log.js";
import { sqliteKeyRevoker } from "../access/sqlite-access-repository.js";
import {
  toPasskey,
  toPasskeyRecord,
  toSessionRecord,
  toStaffMember,
  type PasskeyRow,
  type SessionRow,
  type SsoOutcome,
  type SsoRefusal,
  type StaffRepository,
  type StaffRow,
  type DisabledStaff,
} from "./staff-repository.js";

const STAFF_COLUMNS = `"id", "email", "name", "role", "createdAt", "createdBy", "lastSignInAt", "disabledAt"`;
const SESSION_COLUMNS = `"id", "staffId", "keyId", "createdAt", "lastActiveAt", "expiresAt", "endedAt", "userAgent"`;
const PASSKEY_COLUMNS = `"id", "staffId", "credentialId", "publicKey", "counter", "transports", "name", "createdAt", "lastUsedAt"`;

/** Staff, invitations, passkeys, sessions and tokens on SQLite: prepared statements on the API's connection. */
export function createSqliteStaffRepository(db: Sqlite.Database): StaffRepository {
  let statements: ReturnType<typeof prepare> | undefined;
  const s = () => (statements ??= prepare(db));
  return {
    async listStaff() {
      return s().listStaff.all().map(toStaffMember);
    },
    async getStaff(id) {
      const row = s().staffById.get(id);
      return row ? toStaffMember(row) : null;
    },
    async inviteStaff(member, invitation, audit) {
      return s().invite.immediate(member, invitation, audit);
    },
    async findInvitation(tokenDigest, now) {
      const row = s().invitation.get(tokenDigest, timestamp(now));
      return row ? { staff: toStaffMember(row), expiresAt: new Date(row.invitationExpiresAt) } : null;
    },
    async useInvitation(tokenDigest, now) {
      return s().useInvitation.immediate(tokenDigest, now);
    },
    async changeRole(id, role, audit) {
      return s().changeRole.immediate(id, role, audit);
    },
    async disableStaff(id, audit, options) {
      return s().disable.immediate(id, audit, options?.revokeKeys === true);
    },
    async findOrCreateForSso(identity, now, request) {
      return s().sso.immediate(identity, now, request);
    },
    async createSession(session, signIn) {
      return s().createSession.immediate(session, signIn);
    },
    async findSession(digest) {
      const row = s().sessionByDigest.get(digest);
      return row ? toSessionRecord(row) : null;
    },
    async getSession(id) {
      const row = s().sessionById.get(id);
      return row ? toSessionRecord(row) : null;
    },
    async listSessions(staffId, now) {
      return s().listSessions.all(staffId, timestamp(now)).map(toSessionRecord);
    },
    async createToken(token) {
      s().createToken.immediate(token);
    },
    async endSession(id, audit, target) {
      return s().endSession.immediate(id, audit, target);
    },
    async endStaffSessions(staffId, audit, label) {
      return s().endStaffSessions.immediate(staffId, audit, label);
    },
    async listPasskeys(staffId) {
      return s().listPasskeys.all(staffId).map(toPasskey);
    },
    async renamePasskey(staffId, id, name) {
      const row = s().renamePasskey.get(name, id, staffId);
      return row ? toPasskey(row) : null;
    },
    async removePasskey(staffId, id, audit, label) {
      return s().removePasskey.immediate(staffId, id, audit, label);
    },
    async addPasskey(passkey, audit, label) {
      return s().addPasskey.immediate(passkey, audit, label);
    },
    async acceptInvitation(tokenDigest, passkey, now, audit) {
      try {
        return s().acceptInvitation.immediate(tokenDigest, passkey, now, audit);
      } catch (error) {
        if (error === NOT_ACCEPTED) return null;
        throw error;
      }
    },
    async passkeyCredentials(staffId) {
      return s()
        .listPasskeys.all(staffId)
        .map((row) => {
          const { credentialId, transports } = toPasskeyRecord(row);
          return { credentialId, transports };
        });
    },
    async findPasskey(credentialId) {
      const row = s().passkeyByCredential.get(credentialId);
      return row ? toPasskeyRecord(row) : null;
    },
    async recordPasskeyUse(id, counter, at) {
      return s().passkeyUse.run(counter, timestamp(at), id, counter, counter).changes === 1;
    },
  };
}

type Repo = StaffRepository;

/** Thrown inside acceptInvitation's transaction to roll it back; answered as null. */
const NOT_ACCEPTED = Symbol("invitation not accepted");

function prepare(db: Sqlite.Database) {
  const recordEvent = sqliteActivityWriter(db);
  const staffById = db.prepare<[number], StaffRow>(`SELECT ${STAFF_COLUMNS} FROM "StaffMember" WHERE "id" = ?`);
  const staffByEmail = db.prepare<[string], StaffRow>(`SELECT ${STAFF_COLUMNS} FROM "StaffMember" WHERE "email" = ?`);
  const insertStaff = db.prepare<[string, string, string, string, string | null], StaffRow>(
    `INSERT INTO "StaffMember" ("email", "name", "role", "createdAt", "createdBy") VALUES (?, ?, ?, ?, ?) RETURNING ${STAFF_COLUMNS}`,
  );
  const insertInvitation = db.prepare<[string, number, string, string]>(
    `INSERT INTO "Invitation" ("tokenDigest", "staffId", "createdAt", "expiresAt") VALUES (?, ?, ?, ?)`,
  );
  const endOpenInvitations = db.prepare<[string, number]>(`UPDATE "Invitation" SET "usedAt" = ? WHERE "staffId" = ? AND "usedAt" IS NULL`);
  const hasPasskey = db.prepare<[number], { one: number }>(`SELECT 1 AS "one" FROM "Passkey" WHERE "staffId" = ? LIMIT 1`);
  const setNameAndRole = db.prepare<[string, string, number], StaffRow>(`UPDATE "StaffMember" SET "name" = ?, "role" = ? WHERE "id" = ? RETURNING ${STAFF_COLUMNS}`);
  const endSessionsOf = db.prepare<[string, number]>(`UPDATE "StaffSession" SET "endedAt" = ? WHERE "staffId" = ? AND "endedAt" IS NULL`);
  const setRole = db.prepare<[string, number], StaffRow>(`UPDATE "StaffMember" SET "role" = ? WHERE "id" = ? RETURNING ${STAFF_COLUMNS}`);
  const setDisabled = db.prepare<[string, number], StaffRow>(
    `UPDATE "StaffMember" SET "disabledAt" = ? WHERE "id" = ? AND "disabledAt" IS NULL RETURNING ${STAFF_COLUMNS}`,
  );
  const invitation = db.prepare<[string, string], StaffRow & { invitationExpiresAt: string }>(
    `SELECT ${STAFF_COLUMNS.split(", ").map((column) => `"m".${column}`).join(", ")}, "i"."expiresAt" AS "invitationExpiresAt"
     FROM "Invitation" AS "i" JOIN "StaffMember" AS "m" ON "m"."id" = "i"."staffId"
     WHERE "i"."tokenDigest" = ? AND "i"."usedAt" IS NULL AND "i"."expiresAt" > ? AND "m"."disabledAt" IS NULL AND "m"."lastSignInAt" IS NULL`,
  );
  const markInvitationUsed = db.prepare<[string, string, string], { staffId: number }>(
    `UPDATE "Invitation" SET "usedAt" = ? WHERE "tokenDigest" = ? AND "usedAt" IS NULL AND "expiresAt" > ? RETURNING "staffId"`,
  );
  const sessionByDigest = db.prepare<[string], SessionRow>(`SELECT ${SESSION_COLUMNS} FROM "StaffSession" WHERE "digest" = ?`);
  const sessionById = db.prepare<[number], SessionRow>(`SELECT ${SESSION_COLUMNS} FROM "StaffSession" WHERE "id" = ?`);
  const insertSession = db.prepare<[string, number | null, string | null, string, string, string, string | null], SessionRow>(
    `INSERT INTO "StaffSession" ("digest", "staffId", "keyId", "createdAt", "lastActiveAt", "expiresAt", "userAgent")
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${SESSION_COLUMNS}`,
  );
  const signedIn = db.prepare<[string, number]>(`UPDATE "StaffMember" SET "lastSignInAt" = ? WHERE "id" = ?`);
  const endOne = db.prepare<[string, number], SessionRow>(
    `UPDATE "StaffSession" SET "endedAt" = ? WHERE "id" = ? AND "endedAt" IS NULL RETURNING ${SESSION_COLUMNS}`,
  );
  const insertToken = db.prepare<[string, number, string, string, string]>(
    `INSERT INTO "SessionToken" ("digest", "sessionId", "scope", "createdAt", "expiresAt") VALUES (?, ?, ?, ?, ?)`,
  );
  const touchSession = db.prepare<[string, number]>(`UPDATE "StaffSession" SET "lastActiveAt" = ? WHERE "id" = ?`);
  const sweepTokens = db.prepare<[number, string]>(`DELETE FROM "SessionToken" WHERE "sessionId" = ? AND "expiresAt" <= ?`);
  const passkeyCount = db.prepare<[number], { total: number }>(`SELECT count(*) AS "total" FROM "Passkey" WHERE "staffId" = ?`);
  const passkeyOf = db.prepare<[number, number], PasskeyRow>(`SELECT ${PASSKEY_COLUMNS} FROM "Passkey" WHERE "id" = ? AND "staffId" = ?`);
  const deletePasskey = db.prepare<[number]>(`DELETE FROM "Passkey" WHERE "id" = ?`);
  const insertPasskey = db.prepare<[number, string, string, number, string, string, string], PasskeyRow>(
    `INSERT INTO "Passkey" ("staffId", "credentialId", "publicKey", "counter", "transports", "name", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${PASSKEY_COLUMNS}`,
  );
  const staffByOidc = db.prepare<[string, string], StaffRow>(`SELECT ${STAFF_COLUMNS} FROM "StaffMember" WHERE "oidcIssuer" = ? AND "oidcSubject" = ?`);
  const tieOidc = db.prepare<[string, string, number], StaffRow>(
    `UPDATE "StaffMember" SET "oidcIssuer" = ?, "oidcSubject" = ? WHERE "id" = ? RETURNING ${STAFF_COLUMNS}`,
  );
  const holderByEmail = db.prepare<[string], StaffRow & { tied: number }>(
    `SELECT ${STAFF_COLUMNS}, "oidcIssuer" IS NOT NULL AS "tied" FROM "StaffMember" WHERE "email" = ?`,
  );
  const revokeKey = sqliteKeyRevoker(db);
  const activeKeysBy = db.prepare<[number], { id: number }>(`SELECT "id" FROM "ApiKey" WHERE "createdByStaffId" = ? AND "revokedAt" IS NULL ORDER BY "id"`);
  const insertSsoStaff = db.prepare<[string, string, string, string, string, string], StaffRow>(
    `INSERT INTO "StaffMember" ("email", "name", "role", "createdAt", "oidcIssuer", "oidcSubject") VALUES (?, ?, ?, ?, ?, ?) RETURNING ${STAFF_COLUMNS}`,
  );

  const endSessionsWithEvent = (staffId: number, at: Date, audit: Parameters<Repo["endStaffSessions"]>[1], label: string): number => {
    const { changes } = endSessionsOf.run(timestamp(at), staffId);
    if (changes > 0) recordEvent(at, "session.ended", { type: "staff", id: staffId, label }, audit);
    return changes;
  };

  return {
    listStaff: db.prepare<[], StaffRow>(`SELECT ${STAFF_COLUMNS} FROM "StaffMember" ORDER BY "id" DESC LIMIT ${LIST_STAFF_MAX}`),
    staffById,
    invite: db.transaction((member: Parameters<Repo["inviteStaff"]>[0], inv: Parameters<Repo["inviteStaff"]>[1], audit: Parameters<Repo["inviteStaff"]>[2]) => {
      const existing = staffByEmail.get(member.email);
      let staff: StaffMember;
      if (existing) {
        // Invited again (a lost or expired link): only a person who never signed in and holds no passkey.
        const { id, lastSignInAt, disabledAt } = toStaffMember(existing);
        if (lastSignInAt !== null || disabledAt !== null || hasPasskey.get(id)) return "email-taken" as const;
        endOpenInvitations.run(timestamp(inv.createdAt), id);
        staff = toStaffMember(setNameAndRole.get(member.name, member.role, id)!);
      } else {
        staff = toStaffMember(insertStaff.get(member.email, member.name, member.role, timestamp(inv.createdAt), member.createdBy)!);
      }
      insertInvitation.run(inv.tokenDigest, staff.id, timestamp(inv.createdAt), timestamp(inv.expiresAt));
      recordEvent(inv.createdAt, "staff.invited", { type: "staff", id: staff.id, label: staff.name, detail: staff.role }, audit);
      return staff;
    }),
    invitation,
    useInvitation: db.transaction((tokenDigest: string, now: Date): StaffMember | null => {
      const used = markInvitationUsed.get(timestamp(now), tokenDigest, timestamp(now));
      if (!used) return null;
      const row = staffById.get(used.staffId);
      // Signed in already: their invitations ended then (one left open is refused like a used one).
      if (!row || row.disabledAt !== null || row.lastSignInAt !== null) return null;
      // One link at a time: any other open invitation of theirs ends too.
      endOpenInvitations.run(timestamp(now), used.staffId);
      return toStaffMember(row);
    }),
    changeRole: db.transaction((id: number, role: string, audit: Parameters<Repo["changeRole"]>[2]): StaffMember | null => {
      const before = staffById.get(id);
      if (!before) return null;
      if (before.role === role) return toStaffMember(before);
      const now = new Date();
      const staff = toStaffMember(setRole.get(role, id)!);
      recordEvent(now, "staff.role_changed", { type: "staff", id, label: staff.name, detail: role }, audit);
      endSessionsOf.run(timestamp(now), id);
      return staff;
    }),
    disable: db.transaction((id: number, audit: Parameters<Repo["disableStaff"]>[1], revokeKeys: boolean): DisabledStaff | null => {
      const now = new Date();
      const disabled = setDisabled.get(timestamp(now), id);
      let staff: StaffMember;
      if (disabled) {
        staff = toStaffMember(disabled);
        recordEvent(now, "staff.disabled", { type: "staff", id, label: staff.name }, audit);
        endSessionsOf.run(timestamp(now), id);
        endOpenInvitations.run(timestamp(now), id);
      } else {
        const existing = staffById.get(id);
        if (!existing) return null;
        staff = toStaffMember(existing);
      }
      // Their keys, as revokeKey revokes each (key.revoked, the key's sessions ended), in this transaction.
      const revokedKeys = revokeKeys ? activeKeysBy.all(id).flatMap(({ id: keyId }) => revokeKey(keyId, now, audit) ?? []) : [];
      return { staff, revokedKeys };
    }),
    sso: db.transaction(
      (identity: Parameters<Repo["findOrCreateForSso"]>[0], now: Date, request: Parameters<Repo["findOrCreateForSso"]>[2]): SsoOutcome | SsoRefusal => {
        const settle = (row: StaffRow, how: SsoOutcome["how"]): SsoOutcome => {
          if (row.disabledAt !== null) return { staff: toStaffMember(row), how, roleChanged: false };
          const id = Number(row.id);
          let tied = row;
          if (how === "joined") {
            tied = tieOidc.get(identity.issuer, identity.subject, id)!;
            // Joined: the link they were sent is no way in any more.
            endOpenInvitations.run(timestamp(now), id);
          }
          if (tied.role === identity.role) return { staff: toStaffMember(tied), how, roleChanged: false };
          const staff = toStaffMember(setRole.get(identity.role, id)!);
          const audit = { actor: { keyId: null, staffId: id, name: staff.name }, ...request };
          recordEvent(now, "staff.role_changed", { type: "staff", id, label: staff.name, detail: identity.role }, audit);
          endSessionsOf.run(timestamp(now), id);
          return { staff, how, roleChanged: true };
        };
        const tied = staffByOidc.get(identity.issuer, identity.subject);
        if (tied) return settle(tied, "tied");
        const email = identity.email.toLowerCase();
        const holder = holderByEmail.get(email);
        if (holder && identity.emailVerified) {
          // A verified email joins only a person who is invited and nothing more: never signed in, no passkey,
          // no identity. Anyone else's account is not handed to whoever holds that email at the provider.
          if (!holder.tied && holder.lastSignInAt === null && !hasPasskey.get(Number(holder.id))) return settle(holder, "joined");
          return { refused: "account-exists", staffId: Number(holder.id) };
        }
        const created = insertSsoStaff.get(holder ? identity.fallbackEmail : email, identity.name, identity.role, timestamp(now), identity.issuer, identity.subject)!;
        return { staff: toStaffMember(created), how: "created", roleChanged: false };
      },
    ),
    createSession: db.transaction((session: Parameters<Repo["createSession"]>[0], signIn: Parameters<Repo["createSession"]>[1]) => {
      const at = timestamp(session.createdAt);
      const row = insertSession.get(session.digest, session.staffId, session.keyId, at, at, timestamp(session.expiresAt), session.userAgent)!;
      if (session.staffId !== null) {
        signedIn.run(at, session.staffId);
        // A first sign-in, by any means, ends the person's open invitations.
        endOpenInvitations.run(at, session.staffId);
      }
      recordEvent(session.createdAt, signIn.action, { ...signIn.target, detail: signIn.detail }, signIn.audit);
      return toSessionRecord(row);
    }),
    sessionByDigest,
    sessionById,
    listSessions: db.prepare<[number, string], SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM "StaffSession" WHERE "staffId" = ? AND "endedAt" IS NULL AND "expiresAt" > ? ORDER BY "id" DESC LIMIT 1000`,
    ),
    createToken: db.transaction((token: Parameters<Repo["createToken"]>[0]) => {
      sweepTokens.run(token.sessionId, timestamp(token.createdAt));
      insertToken.run(token.digest, token.sessionId, token.scope, timestamp(token.createdAt), timestamp(token.expiresAt));
      touchSession.run(timestamp(token.createdAt), token.sessionId);
    }),
    endSession: db.transaction((id: number, audit: Parameters<Repo["endSession"]>[1], target: Parameters<Repo["endSession"]>[2]) => {
      const now = new Date();
      const ended = endOne.get(timestamp(now), id);
      if (!ended) {
        const existing = sessionById.get(id);
        return existing ? toSessionRecord(existing) : null;
      }
      if (audit && target) recordEvent(now, "session.ended", target, audit);
      return toSessionRecord(ended);
    }),
    endStaffSessions: db.transaction((staffId: number, audit: Parameters<Repo["endStaffSessions"]>[1], label: string) =>
      endSessionsWithEvent(staffId, new Date(), audit, label),
    ),
    listPasskeys: db.prepare<[number], PasskeyRow>(`SELECT ${PASSKEY_COLUMNS} FROM "Passkey" WHERE "staffId" = ? ORDER BY "id"`),
    renamePasskey: db.prepare<[string, number, number], PasskeyRow>(
      `UPDATE "Passkey" SET "name" = ? WHERE "id" = ? AND "staffId" = ? RETURNING ${PASSKEY_COLUMNS}`,
    ),
    removePasskey: db.transaction((staffId: number, id: number, audit: Parameters<Repo["removePasskey"]>[2], label: string) => {
      const passkey = passkeyOf.get(id, staffId);
      if (!passkey) return null;
      if (passkeyCount.get(staffId)!.total <= 1) return "last" as const;
      deletePasskey.run(id);
      recordEvent(new Date(), "passkey.removed", { type: "staff", id: staffId, label }, audit);
      return "removed" as const;
    }),
    addPasskey: db.transaction((passkey: Parameters<Repo["addPasskey"]>[0], audit: Parameters<Repo["addPasskey"]>[1], label: string) => {
      const now = new Date();
      const row = insertPasskey.get(
        passkey.staffId,
        passkey.credentialId,
        passkey.publicKey,
        passkey.counter,
        passkey.transports.join(" "),
        passkey.name,
        timestamp(now),
      )!;
      recordEvent(now, "passkey.added", { type: "staff", id: passkey.staffId, label }, audit);
      return toPasskeyRecord(row);
    }),
    acceptInvitation: db.transaction(
      (tokenDigest: string, passkey: Parameters<Repo["acceptInvitation"]>[1], now: Date, audit: Parameters<Repo["acceptInvitation"]>[3]): StaffMember => {
        // Thrown, not returned: the transaction rolls back, and the invitation stays unused.
        const used = markInvitationUsed.get(timestamp(now), tokenDigest, timestamp(now));
        if (!used || Number(used.staffId) !== passkey.staffId) throw NOT_ACCEPTED;
        const row = staffById.get(passkey.staffId);
        if (!row || row.disabledAt !== null || row.lastSignInAt !== null) throw NOT_ACCEPTED;
        endOpenInvitations.run(timestamp(now), passkey.staffId);
        insertPasskey.run(
          passkey.staffId,
          passkey.credentialId,
          passkey.publicKey,
          passkey.counter,
          passkey.transports.join(" "),
          passkey.name,
          timestamp(now),
        );
        recordEvent(now, "passkey.added", { type: "staff", id: passkey.staffId, label: row.name }, audit);
        return toStaffMember(row);
      },
    ),
    passkeyByCredential: db.prepare<[string], PasskeyRow>(`SELECT ${PASSKEY_COLUMNS} FROM "Passkey" WHERE "credentialId" = ?`),
    passkeyUse: db.prepare<[number, string, number, number, number]>(
      `UPDATE "Passkey" SET "counter" = ?, "lastUsedAt" = ? WHERE "id" = ? AND ("counter" < ? OR ("counter" = 0 AND ? = 0))`,
    ),
  };
}
