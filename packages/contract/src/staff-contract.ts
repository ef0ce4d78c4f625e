import { initContract } from "@ts-rest/core";
import type { RouteMetadata } from "./route-metadata.js";
import { EmptyBody, ErrorBody } from "./schemas.js";
import {
  DisableStaffBody,
  Invitation,
  InvitationLookup,
  InvitedStaffMember,
  NewStaffMember,
  SessionIdParams,
  StaffIdParams,
  StaffMember,
  StaffMembers,
  StaffRoleChange,
  StaffSessionSummary,
} from "./staff-schemas.js";

const c = initContract();

/** Staff members and their invitations, managed by an admin; an invitation read by the person invited. Composed under `/admin/v1` by `adminContract`. */
export const staffContract = c.router({
  listStaff: {
    method: "GET",
    path: "/staff",
    metadata: { credential: "bearer", scope: "admin", tag: "staff" } satisfies RouteMetadata,
    summary: "List staff",
    description: "Every staff member, newest first, disabled ones included.",
    responses: { 200: StaffMembers, 401: ErrorBody, 403: ErrorBody },
  },
  inviteStaff: {
    method: "POST",
    path: "/staff",
    contentType: "application/json",
    body: NewStaffMember,
    metadata: { credential: "bearer", scope: "admin", tag: "staff" } satisfies RouteMetadata,
    summary: "Invite a person",
    description:
      "Adds a staff member and answers their one-time invitation link (`<ADMIN_ORIGIN>/invite#<token>`, valid 24 hours), this once: " +
      "only the token's SHA-256 is stored. An email that is already a staff member's invites them again while they have never signed in " +
      "and hold no passkey (a lost or expired link): their name and role as sent, a new link, and the earlier link stops working. " +
      "Otherwise (they signed in, hold a passkey, or are disabled) it is refused (400).",
    responses: {
      201: InvitedStaffMember,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
  changeStaffRole: {
    method: "POST",
    path: "/staff/:staffId/role",
    contentType: "application/json",
    pathParams: StaffIdParams,
    body: StaffRoleChange,
    metadata: { credential: "bearer", scope: "admin", tag: "staff" } satisfies RouteMetadata,
    summary: "Change a person's role",
    description:
      "Sets the role; their sessions and tokens end at once on this API process and within 2 seconds on every other, so the new role holds from their next sign-in.",
    responses: {
      200: StaffMember,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
  disableStaff: {
    method: "POST",
    path: "/staff/:staffId/disable",
    contentType: "application/json",
    pathParams: StaffIdParams,
    body: DisableStaffBody,
    metadata: { credential: "bearer", scope: "admin", tag: "staff" } satisfies RouteMetadata,
    summary: "Disable a person",
    description:
      "Disables the person: their sessions and tokens end at once on this API process and within 2 seconds on every other, and they cannot sign in again. " +
      "`revokeKeys: true` also revokes every active key they created, in the same transaction, each with a `key.revoked` event (default false: their keys keep working). " +
      "Disabling a disabled person answers them again, unchanged (and revokes their keys if asked).",
    responses: {
      200: StaffMember,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
  endSession: {
    method: "POST",
    path: "/sessions/:sessionId/end",
    contentType: "application/json",
    pathParams: SessionIdParams,
    body: EmptyBody,
    metadata: { credential: "bearer", scope: "admin", tag: "staff" } satisfies RouteMetadata,
    summary: "End a browser session",
    description:
      "Ends one browser session (a person's or a key's) and its tokens, at once on this API process and within 2 seconds on every other.",
    responses: {
      200: StaffSessionSummary,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
  getInvitation: {
    method: "POST",
    path: "/invitations/lookup",
    contentType: "application/json",
    body: InvitationLookup,
    metadata: { credential: "none", tag: "sign-in" } satisfies RouteMetadata,
    summary: "Read an invitation",
    description:
      "Who an invitation link is for. The token goes in the body, never in a URL. A used, expired or unknown one: 404, and it spends the address's failure budget.",
    responses: { 200: Invitation, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
  },
});
