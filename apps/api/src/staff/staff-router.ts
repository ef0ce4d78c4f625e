import { adminContract, INVITATION_TTL_HOURS, type StaffSessionSummary } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import { secretDigest } from "../access/bearer.js";
import { auditContext, caller } from "../access/caller.js";
import type { IssuedKeys } from "../access/issued-keys.js";
import { fieldRefusedAnswer, HttpError, notFoundAnswer } from "../base/http-error.js";
import { newSecret } from "./session-cookie.js";
import type { StaffSessions } from "./sessions.js";
import type { SessionRecord } from "./staff-repository.js";
import type { RouterOf } from "../base/contract-router.js";

const server = initServer();

/** What the invitation page says of a used, expired or unknown link. */
export const INVITATION_GONE = "This invitation has expired or was already used.";

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
  return {
    token,
    tokenDigest: secretDigest(token).toString("hex"),
    createdAt: new Date(now),
    expiresAt: new Date(now + INVITATION_TTL_HOURS * 3_600_000),
  };
}

/** A browser session as answered (`current`: the one the caller's token belongs to). */
export const toSessionSummary = (session: SessionRecord, current: number | undefined): StaffSessionSummary => ({
  id: session.id,
  browser: session.userAgent,
  signedInAt: session.createdAt.toISOString(),
  lastActiveAt: session.lastActiveAt.toISOString(),
  expiresAt: session.expiresAt.toISOString(),
  current: session.id === current,
});

/**
 * The staff contract: staff members and their invitations, an admin's to manage, and an invitation read by
 * the person invited (its token is its own credential). Each route's credential is checked before its handler runs.
 */
export function createStaffRouter({
  sessions,
  issuedKeys,
  adminOrigin,
}: StaffHandlerDeps): RouterOf<typeof adminContract.staff> {
  const repository = sessions.repository;
  return server.router(adminContract.staff, {
    listStaff: async () => ({ status: 200, body: await repository.listStaff() }),

    inviteStaff: async ({ body, req, res }) => {
      if (!adminOrigin)
        return fieldRefusedAnswer(
          "body",
          "invitations are off: the server has no ADMIN_ORIGIN, the admin app's origin, to link to",
        );
      const invitation = newInvitation(sessions.now());
      const staff = await repository.inviteStaff(
        { email: body.email, name: body.name, role: body.role, createdBy: caller(res).name },
        invitation,
        auditContext(req, res),
      );
      if (staff === "email-taken") return fieldRefusedAnswer("body.email", "a staff member has this email already");
      return {
        status: 201,
        body: {
          staff,
          invitationUrl: invitationUrl(adminOrigin, invitation.token),
          expiresAt: invitation.expiresAt.toISOString(),
        },
      };
    },

    changeStaffRole: async ({ params, body, req, res }) => {
      const staff = await repository.changeRole(params.staffId, body.role, auditContext(req, res));
      if (!staff) return notFoundAnswer(`No staff member has id ${params.staffId}.`);
      issuedKeys.endedSessions({ staffId: staff.id });
      return { status: 200, body: staff };
    },

    disableStaff: async ({ params, body, req, res }) => {
      const disabled = await repository.disableStaff(params.staffId, auditContext(req, res), {
        revokeKeys: body?.revokeKeys === true,
      });
      if (!disabled) return notFoundAnswer(`No staff member has id ${params.staffId}.`);
      const { staff, revokedKeys } = disabled;
      issuedKeys.endedSessions({ staffId: staff.id });
      // Refused here at once (with their keys' sessions), on other processes within 2 s.
      for (const key of revokedKeys) issuedKeys.revoked(key.id);
      return { status: 200, body: staff };
    },

    endSession: async ({ params, req, res }) => {
      const found = await repository.getSession(params.sessionId);
      if (!found) return notFoundAnswer(`No browser session has id ${params.sessionId}.`);
      const staff = found.staffId === null ? null : await repository.getStaff(found.staffId);
      const target = staff
        ? { type: "staff" as const, id: staff.id, label: staff.name }
        : {
            type: "key" as const,
            id: found.keyId === null ? 0 : sessions.keyTargetId(found.keyId),
            label: found.keyId ?? "key",
          };
      const ended = await repository.endSession(found.id, auditContext(req, res), target);
      issuedKeys.endedSessions({ sessionId: found.id });
      return { status: 200, body: toSessionSummary(ended ?? found, caller(res).sessionId) };
    },

    getInvitation: async ({ body, req }) => {
      const found = await repository.findInvitation(secretDigest(body.token).toString("hex"), new Date(sessions.now()));
      if (!found) throw await sessions.failure(req, () => new HttpError(404, "NOT_FOUND", INVITATION_GONE));
      const { staff, expiresAt } = found;
      return {
        status: 200,
        body: { name: staff.name, email: staff.email, role: staff.role, expiresAt: expiresAt.toISOString() },
      };
    },
  });
}
