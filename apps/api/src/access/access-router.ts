import { accessContract, type ErrorBody } from "@petstore/contract";
import { initServer, type createExpressEndpoints } from "@ts-rest/express";
import type { ActivityLog } from "../activity/activity-log.js";
import { toErrorBody } from "../base/http-error.js";
import { pageWithNextLink, rowsToRead } from "../base/next-page.js";
import { auditContext, caller, type Caller } from "./caller.js";
import type { IssuedKeys } from "./issued-keys.js";
import type { AccessRepository } from "./access-repository.js";
import { issueKey } from "./issue-key.js";

const server = initServer();

/**
 * When the authority behind a caller ends, for "a key cannot outlive its issuer": a key's own expiry.
 * A session token's own 10 minutes are not that authority: a person's token answers for the person (no
 * expiry), a key session's token for its key, read by its id (revoked ones included: never looked for in a
 * capped list, where an issuer past the newest LIST_KEYS_MAX would be missed and taken for one that never
 * expires). Undefined: the issuer cannot be read, and the create is refused.
 */
async function authorityExpiresAt(issuer: Caller, repository: Pick<AccessRepository, "getKey">): Promise<Date | null | undefined> {
  if (issuer.sessionId === undefined) return issuer.expiresAt;
  if (issuer.staffId !== null || issuer.issuedKeyId === undefined) return null;
  const key = await repository.getKey(issuer.issuedKeyId);
  if (!key || key.revokedAt !== null) return undefined;
  return key.expiresAt === null ? null : new Date(key.expiresAt);
}

/**
 * The 400 of a create whose expiry (none, or a later one) passes the issuer's, naming the latest allowed;
 * undefined when the issuer never expires or the expiry is within its own.
 */
function outlivesIssuer(expiresAt: Date | null, issuerExpiresAt: Date | null): ErrorBody | undefined {
  if (issuerExpiresAt === null || (expiresAt !== null && expiresAt <= issuerExpiresAt)) return undefined;
  const issue = {
    field: "body.expiresAt",
    message: `expiresAt must be at most ${issuerExpiresAt.toISOString()}, when the key making this request expires: a key cannot outlive the key that issues it`,
  };
  return { ...toErrorBody(400, "VALIDATION_ERROR", `Invalid request: ${issue.field}: ${issue.message}.`), issues: [issue] };
}

type AccessRouter = Parameters<typeof createExpressEndpoints<typeof accessContract>>[1];

/** The access contract's webhook operations: their handlers live in their own room (`webhooks/webhooks-router.ts`). */
export type WebhookOperation =
  | "listWebhooks"
  | "createWebhook"
  | "getWebhook"
  | "updateWebhook"
  | "deleteWebhook"
  | "rotateWebhookSecret"
  | "sendTestEvent"
  | "listDeliveries"
  | "resendDelivery";
export type WebhookHandlers = Pick<AccessRouter, WebhookOperation>;

/** The access contract's staff sign-in operations: their handlers live in their own room (`staff/`). */
export type StaffOperation =
  | "listStaff"
  | "inviteStaff"
  | "changeStaffRole"
  | "disableStaff"
  | "endSession"
  | "getAccount"
  | "renamePasskey"
  | "removePasskey"
  | "signOutEverywhere"
  | "addPasskeyOptions"
  | "addPasskey"
  | "createSessionToken"
  | "signOut"
  | "startKeySession"
  | "getInvitation"
  | "invitationPasskeyOptions"
  | "acceptInvitation"
  | "passkeySignInOptions"
  | "passkeySignIn"
  | "ssoStart"
  | "ssoCallback"
  | "getSignInOptions";
export type StaffHandlers = Pick<AccessRouter, StaffOperation>;

/**
 * The staff-access operations. Scopes are enforced by the key check before any of these runs. The
 * webhook and staff sign-in operations are handed in (their rooms sit above this one).
 */
export function createAccessRouter(
  repository: AccessRepository,
  activity: ActivityLog,
  issuedKeys: IssuedKeys,
  webhooks: WebhookHandlers,
  staff: StaffHandlers,
): AccessRouter {
  return server.router(accessContract, {
    ...webhooks,
    ...staff,
    getSession: async ({ res }) => {
      const { keyId, staffId, name, scope, expiresAt } = caller(res);
      return { status: 200, body: { keyId, staffId, name, scope, expiresAt: expiresAt?.toISOString() ?? null } };
    },

    listKeys: async ({ query, req, res }) => {
      const { limit, after, createdByStaffId } = query;
      const rows = await repository.listKeys({ take: rowsToRead(limit), before: after, createdByStaffId });
      return { status: 200, body: pageWithNextLink(rows, limit, { createdByStaffId }, req, res) };
    },

    createKey: async ({ body, req, res }) => {
      const issuer = caller(res);
      const expiresAt = body.expiresAt === undefined ? null : new Date(body.expiresAt);
      const authorityEnds = await authorityExpiresAt(issuer, repository);
      if (authorityEnds === undefined) {
        return { status: 403, body: toErrorBody(403, "FORBIDDEN", "The key this session was started with has been revoked: it cannot issue keys.") };
      }
      const outlives = outlivesIssuer(expiresAt, authorityEnds);
      if (outlives) return { status: 400, body: outlives };
      const issued = await issueKey(
        repository,
        { name: body.name, scope: body.scope, expiresAt, createdBy: issuer.name, createdByStaffId: issuer.staffId },
        auditContext(req, res),
      );
      issuedKeys.added(issued.active);
      return { status: 201, body: { key: issued.key, secret: issued.secret } };
    },

    revokeKey: async ({ params, req, res }) => {
      const key = await repository.revokeKey(params.keyId, auditContext(req, res));
      if (!key) return { status: 404, body: toErrorBody(404, "NOT_FOUND", `No issued key has id ${params.keyId}.`) };
      issuedKeys.revoked(key.id);
      return { status: 200, body: key };
    },

    listAuditEvents: async ({ query, req, res }) => {
      const { limit, action, targetType, targetId } = query;
      const rows = await activity.listAuditEvents({ take: rowsToRead(limit), before: query.after, action, targetType, targetId });
      return { status: 200, body: pageWithNextLink(rows, limit, { action, targetType, targetId }, req, res) };
    },
  });
}
