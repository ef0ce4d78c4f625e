import { initContract } from "@ts-rest/core";
import { ApiKey, ApiKeys, CreatedApiKey, KeyIdParams, ListKeysQuery, NewApiKey } from "./access-schemas.js";
import type { RouteMetadata } from "./route-metadata.js";
import { EmptyBody, ErrorBody } from "./schemas.js";

const c = initContract();

/** Issued keys: list, issue, revoke. Composed under `/admin/v1` by `adminContract`. */
export const keysContract = c.router({
  listKeys: {
    method: "GET",
    path: "/keys",
    query: ListKeysQuery,
    metadata: { credential: "bearer", scope: "admin", tag: "keys" } satisfies RouteMetadata,
    summary: "List issued keys",
    description:
      "Issued keys, newest first, revoked and expired ones included, `limit` a page (default and most 1000). Never a secret. " +
      "Configured keys (API_KEYS) are not listed. `createdByStaffId` lists only the keys that person created. " +
      'A page that may have more carries `Link: <...?after=ID...>; rel="next"`.',
    responses: { 200: ApiKeys, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
  },
  createKey: {
    method: "POST",
    path: "/keys",
    contentType: "application/json",
    body: NewApiKey,
    metadata: { credential: "bearer", scope: "admin", tag: "keys" } satisfies RouteMetadata,
    summary: "Issue a key",
    description:
      "Creates a key with a name, a scope and an optional expiry. The answer carries its secret, this once: only its SHA-256 is stored.",
    responses: { 201: CreatedApiKey, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody },
  },
  revokeKey: {
    method: "POST",
    path: "/keys/:keyId/revoke",
    contentType: "application/json",
    pathParams: KeyIdParams,
    body: EmptyBody,
    metadata: { credential: "bearer", scope: "admin", tag: "keys" } satisfies RouteMetadata,
    summary: "Revoke a key",
    description:
      "Revokes an issued key: refused at once by this API process, and within 2 seconds by every other. " +
      "Revoking a revoked key answers it again, unchanged.",
    responses: {
      200: ApiKey,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
});
