import { accessContract } from "@petstore/contract";
import { initServer, type createExpressEndpoints } from "@ts-rest/express";
import type { ActivityLog } from "../activity/activity-log.js";
import { toErrorBody } from "../base/http-error.js";
import { pageWithNextLink, rowsToRead } from "../base/next-page.js";
import { auditContext, caller } from "./caller.js";
import type { IssuedKeys } from "./issued-keys.js";
import type { AccessRepository } from "./access-repository.js";
import { issueKey } from "./issue-key.js";

const server = initServer();

type AccessRouter = Parameters<typeof createExpressEndpoints<typeof accessContract>>[1];

/** The staff-access operations. Scopes are enforced by the key check before any of these runs. */
export function createAccessRouter(repository: AccessRepository, activity: ActivityLog, issuedKeys: IssuedKeys): AccessRouter {
  return server.router(accessContract, {
    getSession: async ({ res }) => {
      const { keyId, name, scope, expiresAt } = caller(res);
      return { status: 200, body: { keyId, name, scope, expiresAt: expiresAt?.toISOString() ?? null } };
    },

    listKeys: async () => ({ status: 200, body: await repository.listKeys() }),

    createKey: async ({ body, req, res }) => {
      const issued = await issueKey(
        repository,
        {
          name: body.name,
          scope: body.scope,
          expiresAt: body.expiresAt === undefined ? null : new Date(body.expiresAt),
          createdBy: caller(res).name,
        },
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
