import { INVITATION_TTL_HOURS, type ErrorBody, type StaffSessionSummary } from "@petstore/contract";
import type { Request, Response } from "express";
import type { StaffHandlers } from "../access/access-router.js";
import { secretDigest } from "../access/bearer.js";
import { auditContext, caller } from "../access/caller.js";
import type { IssuedKeys } from "../access/issued-keys.js";
import { HttpError, toErrorBody } from "../base/http-error.js";
import { clearSessionCookie, newSecret } from "./session-cookie.js";
import type { StaffSessions } from "./sessions.js";
import type { SessionRecord } from "./staff-repository.js";

const notFound = (message: string) => ({ status: 404 as const, body: toErrorBody(404, "NOT_FOUND", message) });
const badRequest = (field: string, message: string): { status: 400; body: ErrorBody } => {
  const issue = { field, message };
  return { status: 400, body: { ...toErrorBody(400, "VALIDATION_ERROR", `Invalid request: ${field}: ${message}.`), issues: [issue] } };
};
/** What the invitation page says of a used, expired or unknown link. */
export const INVITATION_GONE = "This invitation has expired or was already used.";

/** The ceremonies built by the passkey and single sign-on work: answered as absent until they are. */
const notYet = async () => notFound("This sign-in method is not available on this server yet.");

export interface StaffHandlerDeps {
  sessions: StaffSessions;
  issuedKeys: IssuedKeys;
  /** Config.adminOrigin: the base of invitation links; undefined: invitations are off. */
  adminOrigin: string | undefined;
}

/** An invitation link: the token in the fragment, so no server's or proxy's log ever sees it. */
export const invitationUrl = (adminOrigin: string, token: string) => `${adminOrigin}/invite#${token}`;

/** A new invitation token, its digest (what is stored) and its expiry. */
export function newInvitation(now: number): { token: string; tokenDigest: string; createdAt: Date; expiresAt: Date } {
  const token = newSecret();
  return { token, tokenDigest: secretDigest(token).toString("hex"), createdAt: new Date(now), expiresAt: new Date(now + INVITATION_TTL_HOURS * 3_600_000) };
}

/** The staff sign-in operations of the access contract; each route's credential is checked before its handler runs. */
/** Single sign-on's operations are answered by the sso room above this one (app.ts puts them together). */
type SingleSignOnOperation = "getSignInOptions" | "ssoStart" | "ssoCallback";

export function createStaffHandlers({ sessions, issuedKeys, adminOrigin }: StaffHandlerDeps): Omit<StaffHandlers, SingleSignOnOperation> {
  const repository = sessions.repository;
  const audit = (req: Pick<Request, "id" | "ip">, res: Response) => auditContext(req, res);
  const summary = (session: SessionRecord, current: number | undefined): StaffSessionSummary => ({
    id: session.id,
    browser: session.userAgent,
    signedInAt: session.createdAt.toISOString(),
    lastActiveAt: session.lastActiveAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    current: session.id === current,
  });
  /** The signed-in person (a personToken route ran the check): their record, which must exist. */
  const person = async (res: Response) => {
    const { staffId } = caller(res);
    const staff = staffId === null ? null : await repository.getStaff(staffId);
    if (!staff) throw new HttpError(401, "UNAUTHORIZED", "Sign in again: this account no longer exists.");
    return staff;
  };

  return {
    listStaff: async () => ({ status: 200, body: await repository.listStaff() }),

    inviteStaff: async ({ body, req, res }) => {
      if (!adminOrigin) return badRequest("body", "invitations are off: the server has no ADMIN_ORIGIN, the admin app's origin, to link to");
      const invitation = newInvitation(sessions.now());
      const staff = await repository.inviteStaff(
        { email: body.email, name: body.name, role: body.role, createdBy: caller(res).name },
        invitation,
        audit(req, res),
      );
      if (staff === "email-taken") return badRequest("body.email", "a staff member has this email already");
      return {
        status: 201,
        body: { staff, invitationUrl: invitationUrl(adminOrigin, invitation.token), expiresAt: invitation.expiresAt.toISOString() },
      };
    },

    changeStaffRole: async ({ params, body, req, res }) => {
      const staff = await repository.changeRole(params.staffId, body.role, audit(req, res));
      if (!staff) return notFound(`No staff member has id ${params.staffId}.`);
      issuedKeys.endedSessions({ staffId: staff.id });
      return { status: 200, body: staff };
    },

    disableStaff: async ({ params, body, req, res }) => {
      const disabled = await repository.disableStaff(params.staffId, audit(req, res), { revokeKeys: body?.revokeKeys === true });
      if (!disabled) return notFound(`No staff member has id ${params.staffId}.`);
      const { staff, revokedKeys } = disabled;
      issuedKeys.endedSessions({ staffId: staff.id });
      // Refused here at once (with their keys' sessions), on other processes within 2 s.
      for (const key of revokedKeys) issuedKeys.revoked(key.id);
      return { status: 200, body: staff };
    },

    endSession: async ({ params, req, res }) => {
      const found = await repository.getSession(params.sessionId);
      if (!found) return notFound(`No browser session has id ${params.sessionId}.`);
      const staff = found.staffId === null ? null : await repository.getStaff(found.staffId);
      const target = staff
        ? { type: "staff" as const, id: staff.id, label: staff.name }
        : { type: "key" as const, id: found.keyId === null ? 0 : sessions.keyTargetId(found.keyId), label: found.keyId ?? "key" };
      const ended = await repository.endSession(found.id, audit(req, res), target);
      issuedKeys.endedSessions({ sessionId: found.id });
      return { status: 200, body: summary(ended ?? found, caller(res).sessionId) };
    },

    getAccount: async ({ res }) => {
      const staff = await person(res);
      const now = sessions.now();
      const [passkeys, open] = await Promise.all([repository.listPasskeys(staff.id), repository.listSessions(staff.id, new Date(now))]);
      return { status: 200, body: { staff, passkeys, sessions: open.map((session) => summary(session, caller(res).sessionId)) } };
    },

    renamePasskey: async ({ params, body, res }) => {
      const staff = await person(res);
      const passkey = await repository.renamePasskey(staff.id, params.passkeyId, body.name);
      return passkey ? { status: 200, body: passkey } : notFound(`You have no passkey with id ${params.passkeyId}.`);
    },

    removePasskey: async ({ params, req, res }) => {
      const staff = await person(res);
      const outcome = await repository.removePasskey(staff.id, params.passkeyId, audit(req, res), staff.name);
      if (outcome === null) return notFound(`You have no passkey with id ${params.passkeyId}.`);
      if (outcome === "last") return badRequest("passkeyId", "this is your only passkey: add another before you remove it");
      return { status: 204, body: undefined };
    },

    signOutEverywhere: async ({ req, res }) => {
      const staff = await person(res);
      await repository.endStaffSessions(staff.id, audit(req, res), staff.name);
      issuedKeys.endedSessions({ staffId: staff.id });
      clearSessionCookie(res);
      return { status: 204, body: undefined };
    },

    createSessionToken: async ({ req, res }) => {
      const refusal = sessions.originRefusal(req);
      if (refusal) throw refusal;
      const live = await sessions.live(req);
      if ("refused" in live) throw await sessions.failure(req, () => new HttpError(401, "UNAUTHORIZED", live.refused));
      return { status: 201, body: await sessions.mintToken(live, res) };
    },

    signOut: async ({ req, res }) => {
      const refusal = sessions.originRefusal(req);
      if (refusal) throw refusal;
      if (await sessions.signOut(req, res)) return { status: 204, body: undefined };
      // No cookie, or one of no live session: a failure like a token request's (each unknown cookie cost a read).
      throw await sessions.failure(req, () => new HttpError(401, "UNAUTHORIZED", "This browser had no session, or it had ended already."));
    },

    startKeySession: async ({ req, res }) => ({ status: 201, body: await sessions.startKeySession(req, res, caller(res), audit(req, res)) }),

    getInvitation: async ({ body, req }) => {
      const found = await repository.findInvitation(secretDigest(body.token).toString("hex"), new Date(sessions.now()));
      if (!found) throw await sessions.failure(req, () => new HttpError(404, "NOT_FOUND", INVITATION_GONE));
      const { staff, expiresAt } = found;
      return { status: 200, body: { name: staff.name, email: staff.email, role: staff.role, expiresAt: expiresAt.toISOString() } };
    },

    // The passkey ceremonies: built on StaffSessions.startStaffSession and the
    // staff repository (findInvitation, useInvitation, addPasskey, findPasskey).
    addPasskeyOptions: notYet,
    addPasskey: notYet,
    invitationPasskeyOptions: notYet,
    acceptInvitation: notYet,
    passkeySignInOptions: notYet,
    passkeySignIn: notYet,
  };
}
