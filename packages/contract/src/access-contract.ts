import { initContract } from "@ts-rest/core";
import {
  ApiKey,
  ApiKeys,
  AuditEvents,
  CreatedApiKey,
  KeyIdParams,
  ListAuditEventsQuery,
  NewApiKey,
  RevokeKeyBody,
  Session,
} from "./access-schemas.js";
import type { RouteMetadata } from "./route-metadata.js";
import { ErrorBody } from "./schemas.js";

const c = initContract();

export const ADMIN_API_PATH_PREFIX = "/admin/v1";

/**
 * Staff access: who the caller is, the issued keys, and the activity log. Not
 * part of the interface spec, so a contract of its own beside
 * `petstoreContract`, with its own OpenAPI document.
 */
export const accessContract = c.router(
  {
    getSession: {
      method: "GET",
      path: "/session",
      metadata: { scope: "read", tag: "session" } satisfies RouteMetadata,
      summary: "Who this key is",
      description: "The key the request was made with: its id, name, scope and expiry. Any valid key may ask.",
      responses: { 200: Session, 401: ErrorBody },
    },
    listKeys: {
      method: "GET",
      path: "/keys",
      metadata: { scope: "admin", tag: "keys" } satisfies RouteMetadata,
      summary: "List issued keys",
      description: "Every issued key, newest first, revoked and expired ones included. Never a secret. Configured keys (API_KEYS) are not listed.",
      responses: { 200: ApiKeys, 401: ErrorBody, 403: ErrorBody },
    },
    createKey: {
      method: "POST",
      path: "/keys",
      contentType: "application/json",
      body: NewApiKey,
      metadata: { scope: "admin", tag: "keys" } satisfies RouteMetadata,
      summary: "Issue a key",
      description: "Creates a key with a name, a scope and an optional expiry. The answer carries its secret, this once: only its SHA-256 is stored.",
      responses: { 201: CreatedApiKey, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    revokeKey: {
      method: "POST",
      path: "/keys/:keyId/revoke",
      contentType: "application/json",
      pathParams: KeyIdParams,
      body: RevokeKeyBody,
      metadata: { scope: "admin", tag: "keys" } satisfies RouteMetadata,
      summary: "Revoke a key",
      description:
        "Revokes an issued key: refused at once by this API process, and within 2 seconds by every other. " +
        "Revoking a revoked key answers it again, unchanged.",
      responses: { 200: ApiKey, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    listAuditEvents: {
      method: "GET",
      path: "/audit-events",
      query: ListAuditEventsQuery,
      metadata: { scope: "admin", tag: "activity" } satisfies RouteMetadata,
      summary: "Activity log",
      description:
        "Audit events, newest first, optionally filtered by action and target. A page that may have more carries " +
        '`Link: <...>; rel="next"`.',
      responses: { 200: AuditEvents, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
    },
  },
  {
    pathPrefix: ADMIN_API_PATH_PREFIX,
    strictStatusCodes: true,
    commonResponses: {
      429: ErrorBody,
      500: ErrorBody,
      503: ErrorBody,
    },
  },
);

export type AccessContract = typeof accessContract;
