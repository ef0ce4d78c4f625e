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
import {
  Deliveries,
  Delivery,
  DeliveryIdParams,
  ListDeliveriesQuery,
  NewWebhook,
  Webhook,
  WebhookChanges,
  WebhookIdParams,
  Webhooks,
  WebhookWithSecret,
} from "./webhook-schemas.js";
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
    listWebhooks: {
      method: "GET",
      path: "/webhooks",
      metadata: { scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
      summary: "List webhook endpoints",
      description: "Every webhook endpoint, newest first. Never a secret: its first 10 characters only (`secretPrefix`).",
      responses: { 200: Webhooks, 401: ErrorBody, 403: ErrorBody },
    },
    createWebhook: {
      method: "POST",
      path: "/webhooks",
      contentType: "application/json",
      body: NewWebhook,
      metadata: { scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
      summary: "Register a webhook endpoint",
      description:
        "Registers a URL that events are POSTed to, signed as Standard Webhooks. The answer carries the signing secret, this once. " +
        "A URL whose host does not resolve, or resolves to a loopback, private, link-local or metadata address, is refused.",
      responses: { 201: WebhookWithSecret, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    getWebhook: {
      method: "GET",
      path: "/webhooks/:webhookId",
      pathParams: WebhookIdParams,
      metadata: { scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
      summary: "Get a webhook endpoint",
      description: "One webhook endpoint, without its secret.",
      responses: { 200: Webhook, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
    },
    updateWebhook: {
      method: "PATCH",
      path: "/webhooks/:webhookId",
      contentType: "application/json",
      pathParams: WebhookIdParams,
      body: WebhookChanges,
      metadata: { scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
      summary: "Change a webhook endpoint",
      description: "Changes its URL, description, event types or whether it is enabled; enabling it clears `disabledReason`.",
      responses: { 200: Webhook, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    deleteWebhook: {
      method: "DELETE",
      path: "/webhooks/:webhookId",
      pathParams: WebhookIdParams,
      body: c.noBody(),
      metadata: { scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
      summary: "Delete a webhook endpoint",
      description: "Deletes the endpoint and its deliveries: nothing more is sent to it.",
      responses: { 204: c.noBody(), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
    },
    rotateWebhookSecret: {
      method: "POST",
      path: "/webhooks/:webhookId/rotate-secret",
      contentType: "application/json",
      pathParams: WebhookIdParams,
      body: RevokeKeyBody,
      metadata: { scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
      summary: "Rotate a webhook endpoint's secret",
      description: "A new signing secret, shown this once. For 24 hours deliveries carry a signature with the new secret and one with the old.",
      responses: { 200: WebhookWithSecret, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    sendTestEvent: {
      method: "POST",
      path: "/webhooks/:webhookId/test",
      contentType: "application/json",
      pathParams: WebhookIdParams,
      body: RevokeKeyBody,
      metadata: { scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
      summary: "Send a test event",
      description: "Queues a `webhook.test` event for this endpoint alone, whatever its event types; it is sent at once, as any delivery.",
      responses: { 202: Delivery, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    listDeliveries: {
      method: "GET",
      path: "/webhooks/:webhookId/deliveries",
      pathParams: WebhookIdParams,
      query: ListDeliveriesQuery,
      metadata: { scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
      summary: "An endpoint's deliveries",
      description:
        "The endpoint's deliveries and their attempts, newest first, optionally only those of a status. A page that may have more carries " +
        '`Link: <...>; rel="next"`.',
      responses: { 200: Deliveries, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
    },
    resendDelivery: {
      method: "POST",
      path: "/webhooks/:webhookId/deliveries/:deliveryId/resend",
      contentType: "application/json",
      pathParams: DeliveryIdParams,
      body: RevokeKeyBody,
      metadata: { scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
      summary: "Resend a delivery",
      description: "A new attempt, now, with the same `webhook-id`, whatever the delivery's status.",
      responses: { 202: Delivery, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
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
