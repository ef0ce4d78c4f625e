import { accessContract, ADMIN_API_PATH_PREFIX } from "./access-contract.js";
import {
  ApiKey,
  ApiKeys,
  AUDIT_ACTIONS,
  AuditEvents,
  CreatedApiKey,
  LIST_KEYS_MAX,
  NewApiKey,
  SCOPES,
  Session,
} from "./access-schemas.js";
import {
  buildContractDocument,
  CONTACT,
  type DocumentWords,
  errorExample,
  LICENSE,
  type OpenApiDocument,
  type OpenApiServers,
  TRANSPORT_COMMON_HEADERS,
  TRANSPORT_HEADERS,
  TRANSPORT_STATUS_HEADERS,
  transportResponses,
} from "./openapi-builder.js";
import { INTERFACE_VERSION } from "./openapi.js";
import { ErrorBody, LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN, MAX_ID } from "./schemas.js";
import { Deliveries, Delivery, NewWebhook, Webhook, WebhookChanges, Webhooks, WebhookWithSecret } from "./webhook-schemas.js";

const EXAMPLE_KEY = {
  id: 7,
  name: "Front desk",
  scope: "read",
  prefix: "psk_Vq3x9TbZ",
  createdAt: "2026-11-24T09:30:00.000Z",
  createdBy: "Configured key 1",
  lastUsedAt: "2026-11-24T10:02:11.000Z",
  lastDeprecatedUseAt: null,
  expiresAt: "2027-06-30T00:00:00.000Z",
  revokedAt: null,
};
const EXAMPLE_EVENT = {
  id: 1042,
  at: "2026-11-24T09:30:00.000Z",
  action: "key.created",
  actor: { keyId: "configured-1", name: "Configured key 1" },
  target: { type: "key", id: 7, label: "Front desk" },
  requestId: "0b6f7c1e-3f1a-4d8e-9a55-2c1d7e9b4f10",
  clientAddress: "203.0.113.7",
};

const EXAMPLE_WEBHOOK = {
  id: 3,
  url: "https://hooks.example.com/petstore",
  description: "Stock system",
  eventTypes: ["pet.created"],
  enabled: true,
  disabledReason: null,
  createdAt: "2026-11-25T09:30:00.000Z",
  createdBy: "Configured key 1",
  secretPrefix: "whsec_MfKQ",
};
const EXAMPLE_DELIVERY = {
  id: 211,
  webhookId: 3,
  eventId: "msg_5f0b3c9a2d1e4f6a8b7c0d9e1f2a3b4c",
  eventType: "pet.created",
  status: "succeeded",
  createdAt: "2026-11-25T09:31:00.000Z",
  attempts: [
    { at: "2026-11-25T09:31:00.120Z", statusCode: 503, error: null, durationMs: 87, answer: "busy" },
    { at: "2026-11-25T09:31:05.300Z", statusCode: 200, error: null, durationMs: 64, answer: "ok" },
  ],
};

const WORDS: DocumentWords = {
  schemaNames: new Map<unknown, string>([
    [Session, "Session"],
    [ApiKey, "ApiKey"],
    [ApiKeys, "ApiKeys"],
    [NewApiKey, "NewApiKey"],
    [CreatedApiKey, "CreatedApiKey"],
    [AuditEvents, "AuditEvents"],
    [Webhook, "Webhook"],
    [Webhooks, "Webhooks"],
    [NewWebhook, "NewWebhook"],
    [WebhookChanges, "WebhookChanges"],
    [WebhookWithSecret, "WebhookWithSecret"],
    [Delivery, "Delivery"],
    [Deliveries, "Deliveries"],
    [ErrorBody, "Error"],
  ]),
  nestedSchemas: [
    { name: "Scope", after: "Session", from: (components) => (components["Session"]?.["properties"] as Record<string, unknown>)["scope"] },
    { name: "AuditEvent", after: "AuditEvents", from: (components) => components["AuditEvents"]?.["items"] },
  ],
  schemaExamples: {
    Session: { keyId: "7", name: "Front desk", scope: "read", expiresAt: "2027-06-30T00:00:00.000Z" },
    Scope: "read",
    ApiKey: EXAMPLE_KEY,
    ApiKeys: [EXAMPLE_KEY],
    NewApiKey: { name: "Front desk", scope: "read", expiresAt: "2027-06-30T00:00:00Z" },
    CreatedApiKey: { key: EXAMPLE_KEY, secret: "psk_Vq3x9TbZ0sXkR2mW7yLdN4cFhJ8pGtA1eUoB6iQvM5z" },
    AuditEvent: EXAMPLE_EVENT,
    AuditEvents: [EXAMPLE_EVENT],
    Webhook: EXAMPLE_WEBHOOK,
    Webhooks: [EXAMPLE_WEBHOOK],
    NewWebhook: { url: "https://hooks.example.com/petstore", description: "Stock system", eventTypes: ["pet.created"] },
    WebhookChanges: { enabled: true },
    WebhookWithSecret: { webhook: EXAMPLE_WEBHOOK, secret: "whsec_MfKQ9r8GKYqTzU3rT7hQjCXpLwNi0xVc" },
    Delivery: EXAMPLE_DELIVERY,
    Deliveries: [EXAMPLE_DELIVERY],
    Error: errorExample(403, "FORBIDDEN", "This operation needs a key of scope admin; this key has scope read."),
  },
  parameters: {
    "query:limit": {
      description: "Maximum number of events to return.",
      schema: { type: "integer", format: "int32", minimum: LIMIT_MIN, maximum: LIMIT_MAX, default: LIMIT_DEFAULT },
      example: LIMIT_DEFAULT,
    },
    "query:after": {
      description: "Continue the log after (older than) this event id; the `Link` header of a page that has more carries it.",
      schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
      example: 1042,
    },
    "query:action": { description: "Only events of this action.", schema: { type: "string", enum: [...AUDIT_ACTIONS] }, example: "key.revoked" },
    "query:targetType": { description: "Only events about a pet, or about a key.", schema: { type: "string", enum: ["pet", "key"] }, example: "pet" },
    "query:targetId": {
      description: "Only events about the pet or key with this id (with `targetType`, about that one).",
      schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
      example: 42,
    },
    "query:status": {
      description: "Only deliveries of this status.",
      schema: { type: "string", enum: ["pending", "succeeded", "failed"] },
      example: "failed",
    },
    "path:webhookId": {
      description: "The webhook endpoint's id.",
      schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
      example: 3,
    },
    "path:deliveryId": {
      description: "The delivery's id (one of this endpoint's).",
      schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
      example: 211,
    },
    "path:keyId": {
      description: "The issued key's id (decimal digits; configured keys cannot be revoked here).",
      schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
      example: 7,
    },
  },
  statusResponses: {
    ...transportResponses(""),
    "400": {
      description:
        "A name, scope, date, id, URL, limit or filter is invalid (a webhook URL also when its host does not resolve or is a private address); `issues` names each field at fault. Nothing is stored.",
      example: {
        code: "VALIDATION_ERROR",
        message: "Invalid request: body.scope: scope must be one of read, write, admin.",
        status: 400,
        issues: [{ field: "body.scope", message: "scope must be one of read, write, admin" }],
      },
    },
    "401": {
      description: "API key missing, invalid, revoked or expired.",
      example: errorExample(401, "UNAUTHORIZED", "The API key is not valid."),
    },
    "403": {
      description:
        "The key is valid but its scope does not cover this operation (it needs `admin`); `WWW-Authenticate` names the scope needed.",
      example: errorExample(403, "FORBIDDEN", "This operation needs a key of scope admin; this key has scope read."),
    },
    "404": {
      description: "No issued key, webhook endpoint or delivery has this id.",
      example: errorExample(404, "NOT_FOUND", "No issued key has id 7."),
    },
  },
  operationResponses: {
    getSession: { "200": { description: "The key this request was made with." } },
    listKeys: { "200": { description: `Every issued key, newest first (the ${LIST_KEYS_MAX} newest), revoked and expired ones included.` } },
    createKey: { "201": { description: "The key, and its secret: shown this once, never again." } },
    revokeKey: { "200": { description: "The revoked key; revoking it again answers the same `revokedAt`." } },
    listAuditEvents: { "200": { description: "A page of events, newest first, at most `limit` of them." } },
    listWebhooks: { "200": { description: "Every webhook endpoint, newest first." } },
    createWebhook: { "201": { description: "The endpoint, and its signing secret: shown this once (and at a rotation), never again." } },
    getWebhook: { "200": { description: "The endpoint." } },
    updateWebhook: { "200": { description: "The endpoint as changed." } },
    deleteWebhook: { "204": { description: "Deleted, with its deliveries." } },
    rotateWebhookSecret: { "200": { description: "The endpoint and its new secret; the old one signs too for 24 hours." } },
    sendTestEvent: { "202": { description: "The test delivery, queued: it is sent at once." } },
    listDeliveries: { "200": { description: "A page of the endpoint's deliveries, newest first, at most `limit` of them." } },
    resendDelivery: { "202": { description: "The delivery, pending again: a new attempt is made at once, with the same `webhook-id`." } },
  },
  requestBodies: {
    createKey: { description: "The key to issue. `name` and `scope` are required; `expiresAt` must be in the future." },
    revokeKey: { description: "No body; an empty JSON object is accepted too.", required: false },
    createWebhook: { description: "The endpoint to register. `url` is required; `eventTypes` empty or absent: every type." },
    updateWebhook: { description: "The fields to change; absent fields stay as they are." },
    rotateWebhookSecret: { description: "No body; an empty JSON object is accepted too.", required: false },
    sendTestEvent: { description: "No body; an empty JSON object is accepted too.", required: false },
    resendDelivery: { description: "No body; an empty JSON object is accepted too.", required: false },
  },
  headers: {
    ...TRANSPORT_HEADERS,
    Link: {
      description: '`<...>; rel="next"`, the next (older) page of the activity log or of the deliveries, when there may be one.',
      schema: { type: "string", maxLength: 2048, pattern: '^<[^>]+>; rel="next"$' },
      example: '</admin/v1/audit-events?limit=20&after=1023>; rel="next"',
    },
    "WWW-Authenticate": {
      description: "The challenge (RFC 6750): on a 401 the scheme; on a 403 `error=\"insufficient_scope\"` and the `scope` needed.",
      schema: { type: "string", maxLength: 200 },
      example: 'Bearer realm="petstore", error="insufficient_scope", scope="admin"',
    },
  },
  commonHeaders: TRANSPORT_COMMON_HEADERS,
  statusHeaders: { ...TRANSPORT_STATUS_HEADERS, "401": ["WWW-Authenticate"], "403": ["WWW-Authenticate"] },
  operationHeaders: { listAuditEvents: { "200": ["Link"] }, listDeliveries: { "200": ["Link"] } },
};

/**
 * The OpenAPI 3 document of the staff-access operations (`/admin/v1`), served
 * beside the interface's own. `servers` are the interface's, with `/v1`
 * replaced by `/admin/v1`.
 */
export function buildAccessOpenApiDocument(servers: OpenApiServers): OpenApiDocument {
  const adminUrl = (url: string) => url.replace(/\/v1\/?$/, "") + ADMIN_API_PATH_PREFIX;
  return buildContractDocument(accessContract, {
    info: {
      title: "Petstore staff access",
      version: INTERFACE_VERSION,
      description:
        `Issued API keys with scopes (${SCOPES.join(", ")}), their revocation, the activity log, and webhook endpoints. ` +
        "Every operation but getSession needs a key of scope admin; a key whose scope does not cover an operation gets 403 FORBIDDEN.",
      contact: CONTACT,
      license: LICENSE,
    },
    servers: [
      { url: adminUrl(servers.production), description: "production" },
      { url: adminUrl(servers.staging), description: "staging" },
    ],
    tags: [
      { name: "session", description: "Who the caller's key is." },
      { name: "keys", description: "Issued API keys: create, list, revoke." },
      { name: "activity", description: "The append-only activity log." },
      { name: "webhooks", description: "Webhook endpoints: signed calls when pets and keys change, and the log of their deliveries." },
    ],
    pathPrefix: ADMIN_API_PATH_PREFIX,
    securityDescription: "An API key, as `Authorization: Bearer <API_KEY>`.",
    words: WORDS,
  });
}
