import { initContract } from "@ts-rest/core";
import type { RouteMetadata } from "./route-metadata.js";
import { EmptyBody, ErrorBody } from "./schemas.js";
import { RecoveredEvents, RecoverWebhook } from "./event-schemas.js";
import {
  Deliveries,
  Delivery,
  DeliveryIdParams,
  ListDeliveriesQuery,
  NewWebhook,
  Webhook,
  WebhookChanges,
  WebhookIdParams,
  WebhookWithSecret,
  Webhooks,
} from "./webhook-schemas.js";

const c = initContract();

/** Webhook endpoints and their deliveries. Composed under `/admin/v1` by `adminContract`. */
export const webhooksContract = c.router({
  listWebhooks: {
    method: "GET",
    path: "/webhooks",
    metadata: { credential: "bearer", scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
    summary: "List webhook endpoints",
    description: "Every webhook endpoint, newest first. Never a secret: its first 10 characters only (`secretPrefix`).",
    responses: { 200: Webhooks, 401: ErrorBody, 403: ErrorBody },
  },
  createWebhook: {
    method: "POST",
    path: "/webhooks",
    contentType: "application/json",
    body: NewWebhook,
    metadata: { credential: "bearer", scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
    summary: "Register a webhook endpoint",
    description:
      "Registers a URL that events are POSTed to, signed as Standard Webhooks. The answer carries the signing secret, this once. " +
      "A URL whose host does not resolve, or resolves to a loopback, private, link-local or metadata address, is refused.",
    responses: {
      201: WebhookWithSecret,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
  getWebhook: {
    method: "GET",
    path: "/webhooks/:webhookId",
    pathParams: WebhookIdParams,
    metadata: { credential: "bearer", scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
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
    metadata: { credential: "bearer", scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
    summary: "Change a webhook endpoint",
    description:
      "Changes its URL, description, event types or whether it is enabled; enabling it clears `disabledReason`.",
    responses: {
      200: Webhook,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
  deleteWebhook: {
    method: "DELETE",
    path: "/webhooks/:webhookId",
    pathParams: WebhookIdParams,
    body: c.noBody(),
    metadata: { credential: "bearer", scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
    summary: "Delete a webhook endpoint",
    description: "Deletes the endpoint and its deliveries: nothing more is sent to it.",
    responses: { 204: c.noBody(), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  },
  rotateWebhookSecret: {
    method: "POST",
    path: "/webhooks/:webhookId/rotate-secret",
    contentType: "application/json",
    pathParams: WebhookIdParams,
    body: EmptyBody,
    metadata: { credential: "bearer", scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
    summary: "Rotate a webhook endpoint's secret",
    description:
      "A new signing secret, shown this once. For 24 hours deliveries carry a signature with the new secret and one with the old.",
    responses: {
      200: WebhookWithSecret,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
  sendTestEvent: {
    method: "POST",
    path: "/webhooks/:webhookId/test",
    contentType: "application/json",
    pathParams: WebhookIdParams,
    body: EmptyBody,
    metadata: { credential: "bearer", scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
    summary: "Send a test event",
    description:
      "Queues a `webhook.test` event for this endpoint alone, whatever its event types; it is sent at once, as any delivery.",
    responses: {
      202: Delivery,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
  listDeliveries: {
    method: "GET",
    path: "/webhooks/:webhookId/deliveries",
    pathParams: WebhookIdParams,
    query: ListDeliveriesQuery,
    metadata: { credential: "bearer", scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
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
    body: EmptyBody,
    metadata: { credential: "bearer", scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
    summary: "Resend a delivery",
    description:
      "A new attempt, now, with the same `webhook-id`, whatever the delivery's status. " +
      "While an attempt of this delivery is being sent: 409 `CONFLICT` (one attempt at a time per delivery).",
    responses: {
      202: Delivery,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      409: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
  recoverWebhook: {
    method: "POST",
    path: "/webhooks/:webhookId/recover",
    contentType: "application/json",
    pathParams: WebhookIdParams,
    body: RecoverWebhook,
    metadata: { credential: "bearer", scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
    summary: "Recover missed events",
    description:
      "Sends again every event of the endpoint's types from `since` (to `until`, default now) that it has not answered " +
      "with a 2xx: failed deliveries become due again, and events it never got (raised while it was disabled, or before " +
      "a retry gave up) are queued, each with its own `webhook-id`. Events are kept 30 days. A disabled endpoint: 409 " +
      "`CONFLICT` (enable it first).",
    responses: {
      202: RecoveredEvents,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      409: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
});
