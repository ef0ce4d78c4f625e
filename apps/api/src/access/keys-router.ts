import { adminContract, type ErrorBody } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import { fieldRefusedBody, notFoundAnswer, toErrorBody } from "../base/http-error.js";
import { pageWithNextLink, rowsToRead } from "../base/next-page.js";
import { auditContext, caller, type Caller } from "./caller.js";
import type { IssuedKeys } from "./issued-keys.js";
import type { AccessRepository } from "./access-repository.js";
import { issueKey } from "./issue-key.js";
import type { RouterOf } from "../base/contract-router.js";

const server = initServer();

/**
 * When the authority behind a caller ends, for "a key cannot outlive its issuer": a key's own expiry.
 * A session token's own 10 minutes are not that authority: a person's token answers for the person (no
 * expiry), a key session's token for its key, read by its id (revoked ones included: never looked for in a
 * capped list, where an issuer past the newest LIST_KEYS_MAX would be missed and taken for one that never
 * expires). Undefined: the issuer cannot be read, and the create is refused.
 */
async function authorityExpiresAt(
  issuer: Caller,
  repository: Pick<AccessRepository, "getKey">,
): Promise<Date | null | undefined> {
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
  return fieldRefusedBody(
    "body.expiresAt",
    `expiresAt must be at most ${issuerExpiresAt.toISOString()}, when the key making this request expires: a key cannot outlive the key that issues it`,
  );
}

/** The keys contract: issued keys (admin scope, checked before any of these runs). */
export function createKeysRouter(
  repository: AccessRepository,
  issuedKeys: IssuedKeys,
): RouterOf<typeof adminContract.keys> {
  return server.router(adminContract.keys, {
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
        return {
          status: 403,
          body: toErrorBody(
            403,
            "FORBIDDEN",
            "The key this session was started with has been revoked: it cannot issue keys.",
          ),
        };
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
      if (!key) return notFoundAnswer(`No issued key has id ${params.keyId}.`);
      issuedKeys.revoked(key.id);
      return { status: 200, body: key };
    },
  });
}
