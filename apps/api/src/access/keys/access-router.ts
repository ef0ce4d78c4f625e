import { accessContract } from "@petstore/contract";
import { initServer, type createExpressEndpoints } from "@ts-rest/express";
import { toErrorBody } from "../../http-error.js";
import { auditContext } from "../audit.js";
import { caller } from "../caller.js";
import type { IssuedKeys } from "../issued-keys.js";
import type { AccessRepository } from "./access-repository.js";
import { issueKey } from "./issue-key.js";

const server = initServer();

type AccessRouter = Parameters<typeof createExpressEndpoints<typeof accessContract>>[1];

/** The staff-access operations. Scopes are enforced by the key check before any of these runs. */
export function createAccessRouter(repository: AccessRepository, issuedKeys: IssuedKeys): AccessRouter {
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
      // One row more than asked tells whether a next page exists without a count query.
      const rows = await repository.listAuditEvents({
        take: query.limit + 1,
        before: query.after,
        action: query.action,
        targetType: query.targetType,
        targetId: query.targetId,
      });
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      if (rows.length > query.limit && last) {
        const next = new URLSearchParams({ limit: String(query.limit) });
        if (query.action) next.set("action", query.action);
        if (query.targetType) next.set("targetType", query.targetType);
        if (query.targetId !== undefined) next.set("targetId", String(query.targetId));
        next.set("after", String(last.id));
        res.setHeader("Link", `<${req.baseUrl}${req.path}?${next.toString()}>; rel="next"`);
      }
      return { status: 200, body: page };
    },
  });
}
