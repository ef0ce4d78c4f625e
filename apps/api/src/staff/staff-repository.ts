import type { ApiKey, Passkey, Scope, StaffMember, StaffRole } from "@petstore/contract";
import type { AuditContext } from "../activity/audit-event.js";

/** A browser session as stored: never its cookie, only the cookie's SHA-256 (not even that leaves here). */
export interface SessionRecord {
  id: number;
  /** The person signed in; null for a key's session. */
  staffId: number | null;
  /** The key a key's session was started with (an issued key's id in decimal, or `configured-N`); null for a person. */
  keyId: string | null;
  createdAt: Date;
  lastActiveAt: Date;
  /** The absolute end. */
  expiresAt: Date;
  endedAt: Date | null;
  userAgent: string | null;
}

export interface NewSession {
  /** SHA-256 hex digest of the cookie's value. */
  digest: string;
  staffId: number | null;
  keyId: string | null;
  createdAt: Date;
  expiresAt: Date;
  userAgent: string | null;
}

/** The sign-in a new session records: `staff.signed_in` (detail passkey or sso) or `key.signed_in`. */
export interface SignInEvent {
  action: "staff.signed_in" | "key.signed_in";
  detail: string | null;
  target: { type: "staff" | "key"; id: number; label: string };
  audit: AuditContext;
}

export interface NewPasskey {
  staffId: number;
  /** base64url. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
}

/** A passkey as the WebAuthn ceremonies need it. */
export interface PasskeyRecord extends NewPasskey {
  id: number;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** What a first single sign-on, or a later one, knows of the person. */
export interface SsoIdentity {
  issuer: string;
  subject: string;
  /** Lower-case, and a valid address (the caller puts `fallbackEmail` here when the provider's is not one). */
  email: string;
  emailVerified: boolean;
  /** A person's email when `email` is someone else's already (emails are unique): made from the issuer and subject. */
  fallbackEmail: string;
  name: string;
  /** The role the identity provider's claim maps to now (re-read at every sign-in). */
  role: StaffRole;
}

/** What a single sign-on made of the person record. */
export interface SsoOutcome {
  staff: StaffMember;
  /**
   * `tied`: the person with this issuer and subject; `joined`: an invited person with this email, verified at
   * the provider, who had never signed in, held no passkey and had no single sign-on identity yet, now tied
   * to this one (their open invitations ended); `created`: a new person.
   */
  how: "tied" | "joined" | "created";
  /**
   * Their role was not the provider's and now is: `staff.role_changed` (actor: the person, detail: the new
   * role) is recorded and their open sessions end, in the same transaction, as when an admin changes it.
   */
  roleChanged: boolean;
}

/**
 * A single sign-on refused: the verified email is a person's who has signed in here before (or holds a
 * passkey, or another identity), so joining would hand their account to whoever holds that email at the
 * provider. Nothing was changed. The sign-in page's code `account-exists`.
 */
export interface SsoRefusal {
  refused: "account-exists";
  /** The person the email is (for the log). */
  staffId: number;
}

/** What disableStaff did: the person, and the keys it revoked (with `revokeKeys`; else none). */
export interface DisabledStaff {
  staff: StaffMember;
  revokedKeys: ApiKey[];
}

/**
 * Staff members, their invitations, passkeys, browser sessions and session tokens. Implemented per
 * database; changes that are audited write their event in the same transaction. Secrets arrive here
 * as SHA-256 digests only.
 */
export interface StaffRepository {
  /** The LIST_STAFF_MAX newest, newest first. */
  listStaff(): Promise<StaffMember[]>;
  getStaff(id: number): Promise<StaffMember | null>;
  /**
   * Stores the person (email lower-case) and their invitation, and `staff.invited`. An email that is someone's
   * already invites them again when they never signed in and hold no passkey (a lost or expired link): their
   * name and role as given, their open invitations ended, a new one stored. Otherwise "email-taken".
   */
  inviteStaff(
    member: { email: string; name: string; role: StaffRole; createdBy: string | null },
    invitation: { tokenDigest: string; createdAt: Date; expiresAt: Date },
    audit: AuditContext,
  ): Promise<StaffMember | "email-taken">;
  /**
   * The person an unused, unexpired invitation is for, or null: never a disabled person, nor one who has
   * signed in (their invitations end at the first sign-in; one left open is refused like a used one).
   */
  findInvitation(tokenDigest: string, now: Date): Promise<{ staff: StaffMember; expiresAt: Date } | null>;
  /** Uses the invitation up (once: a second use finds nothing): its person, or null (as findInvitation refuses). */
  useInvitation(tokenDigest: string, now: Date): Promise<StaffMember | null>;
  /**
   * Sets the role and ends the person's sessions, with `staff.role_changed` (detail: the new role) when it
   * changed, in one transaction. Null: no such person.
   */
  changeRole(id: number, role: StaffRole, audit: AuditContext): Promise<StaffMember | null>;
  /**
   * Disables the person and ends their sessions, with `staff.disabled`; a disabled person is answered unchanged.
   * With `revokeKeys`, in the same transaction, every key they made (`createdByStaffId`) that is not revoked
   * is revoked as revokeKey does (`key.revoked` each, their browser sessions ended), disabled already or not.
   * Null: no such person.
   */
  disableStaff(
    id: number,
    audit: AuditContext,
    options?: { revokeKeys?: boolean | undefined },
  ): Promise<DisabledStaff | null>;
  /**
   * Single sign-on: the person tied to this issuer and subject; else, when the email is verified and is a
   * person's: that person joined (tied to this identity, their open invitations ended) when they are only
   * invited (never signed in, no passkey, no identity), else refused (`account-exists`, nothing changed);
   * else a new person (with `fallbackEmail` when an unverified email is taken). The role becomes the
   * identity provider's. A disabled person is answered as they are, nothing changed (the caller refuses
   * them). `request` is the sign-in's, for the `staff.role_changed` event (the actor is the person).
   */
  findOrCreateForSso(
    identity: SsoIdentity,
    now: Date,
    request: Pick<AuditContext, "requestId" | "clientAddress">,
  ): Promise<SsoOutcome | SsoRefusal>;

  /**
   * Stores a new session and its sign-in event, in one transaction; for a person also their lastSignInAt,
   * and the end of their open invitations (a first sign-in by any means ends them).
   */
  createSession(session: NewSession, signIn: SignInEvent): Promise<SessionRecord>;
  /** The session whose cookie has this digest, ended or not, or null. */
  findSession(digest: string): Promise<SessionRecord | null>;
  getSession(id: number): Promise<SessionRecord | null>;
  /** A person's sessions that have not ended nor expired (at `now`), newest first. */
  listSessions(staffId: number, now: Date): Promise<SessionRecord[]>;
  /**
   * Stores a session token (its digest) and moves the session's lastActiveAt to `at`; sweeps the
   * session's expired tokens.
   */
  createToken(token: {
    digest: string;
    sessionId: number;
    scope: Scope;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void>;
  /** Ends one session (once: an ended one is answered as it is, no event). `session.ended` when audit is given. */
  endSession(
    id: number,
    audit: AuditContext | null,
    target: { type: "staff" | "key"; id: number; label: string } | null,
  ): Promise<SessionRecord | null>;
  /** Ends every open session of a person, with one `session.ended` when any ended. How many ended. */
  endStaffSessions(staffId: number, audit: AuditContext, label: string): Promise<number>;

  listPasskeys(staffId: number): Promise<Passkey[]>;
  /** The person's passkey, renamed; null when it is not theirs. */
  renamePasskey(staffId: number, id: number, name: string): Promise<Passkey | null>;
  /** Removes the person's passkey with `passkey.removed`; "last" when it is their only one; null when not theirs. */
  removePasskey(staffId: number, id: number, audit: AuditContext, label: string): Promise<"removed" | "last" | null>;
  /** Stores a verified passkey with `passkey.added`. */
  addPasskey(passkey: NewPasskey, audit: AuditContext, label: string): Promise<PasskeyRecord>;
  /**
   * An invitation's passkey, in one transaction: uses the invitation up (as useInvitation does) when it is
   * `passkey.staffId`'s, and stores the passkey with `passkey.added`. The person; null when the invitation
   * is used, expired, unknown or another person's, or the person is disabled or has signed in: then nothing
   * changes, so a failed ceremony never leaves a used invitation and no passkey.
   */
  acceptInvitation(
    tokenDigest: string,
    passkey: NewPasskey,
    now: Date,
    audit: AuditContext,
  ): Promise<StaffMember | null>;
  /** The credential ids and transports of a person's passkeys, oldest first: a registration's excludeCredentials. */
  passkeyCredentials(staffId: number): Promise<Array<Pick<PasskeyRecord, "credentialId" | "transports">>>;
  /** The passkey with this credential id (base64url), for a sign-in, or null. */
  findPasskey(credentialId: string): Promise<PasskeyRecord | null>;
  /**
   * After a verified sign-in: the new signature counter and lastUsedAt, in one conditional update. False
   * (nothing written) when the stored counter is at or above `counter` and either is not 0: another sign-in
   * with the same counter got there first, as a cloned authenticator's would.
   */
  recordPasskeyUse(id: number, counter: number, at: Date): Promise<boolean>;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A StaffMember row as both databases return it. */
export interface StaffRow {
  id: number | bigint;
  email: string;
  name: string;
  role: string;
  createdAt: Date | string;
  createdBy: string | null;
  lastSignInAt: Date | string | null;
  disabledAt: Date | string | null;
}

export const toStaffMember = (row: StaffRow): StaffMember => ({
  id: Number(row.id),
  email: row.email,
  name: row.name,
  role: row.role as StaffRole,
  createdAt: new Date(row.createdAt).toISOString(),
  createdBy: row.createdBy,
  lastSignInAt: iso(row.lastSignInAt),
  disabledAt: iso(row.disabledAt),
});

export interface SessionRow {
  id: number | bigint;
  staffId: number | bigint | null;
  keyId: string | null;
  createdAt: Date | string;
  lastActiveAt: Date | string;
  expiresAt: Date | string;
  endedAt: Date | string | null;
  userAgent: string | null;
}

export const toSessionRecord = (row: SessionRow): SessionRecord => ({
  id: Number(row.id),
  staffId: row.staffId === null ? null : Number(row.staffId),
  keyId: row.keyId,
  createdAt: new Date(row.createdAt),
  lastActiveAt: new Date(row.lastActiveAt),
  expiresAt: new Date(row.expiresAt),
  endedAt: row.endedAt === null ? null : new Date(row.endedAt),
  userAgent: row.userAgent,
});

export interface PasskeyRow {
  id: number | bigint;
  staffId: number | bigint;
  credentialId: string;
  publicKey: string;
  counter: number | bigint;
  transports: string;
  name: string;
  createdAt: Date | string;
  lastUsedAt: Date | string | null;
}

export const toPasskeyRecord = (row: PasskeyRow): PasskeyRecord => ({
  id: Number(row.id),
  staffId: Number(row.staffId),
  credentialId: row.credentialId,
  publicKey: row.publicKey,
  counter: Number(row.counter),
  transports: row.transports === "" ? [] : row.transports.split(" "),
  name: row.name,
  createdAt: new Date(row.createdAt),
  lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt),
});

export const toPasskey = (row: PasskeyRow): Passkey => ({
  id: Number(row.id),
  name: row.name,
  createdAt: new Date(row.createdAt).toISOString(),
  lastUsedAt: iso(row.lastUsedAt),
});
