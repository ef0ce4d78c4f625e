import { API_PATH_PREFIX } from "./petstore-contract.js";
import { adminContract, ADMIN_API_PATH_PREFIX } from "./root.js";
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
import {
  Account,
  Invitation,
  InvitationLookup,
  InvitedStaffMember,
  NewStaffMember,
  Passkey,
  PasskeyAuthenticationOptions,
  PasskeyRegistrationOptions,
  SessionToken,
  SignInOptions,
  StaffSessionSummary,
  StaffMember,
  StaffMembers,
  StaffRoleChange,
} from "./staff-schemas.js";
import { RecoveredEvents, RecoverWebhook } from "./event-schemas.js";
import {
  Deliveries,
  Delivery,
  NewWebhook,
  Webhook,
  WebhookChanges,
  Webhooks,
  WebhookWithSecret,
} from "./webhook-schemas.js";

const EXAMPLE_KEY = {
  id: 7,
  name: "Front desk",
  scope: "read",
  prefix: "psk_Vq3x9TbZ",
  createdAt: "2026-11-24T09:30:00.000Z",
  createdBy: "Configured key 1",
  createdByStaffId: null,
  lastUsedAt: "2026-11-24T10:02:11.000Z",
  lastDeprecatedUseAt: null,
  expiresAt: "2027-06-30T00:00:00.000Z",
  revokedAt: null,
};
const EXAMPLE_EVENT = {
  id: 1042,
  at: "2026-11-24T09:30:00.000Z",
  action: "key.created",
  actor: { keyId: "configured-3f9a0c1b2d4e", staffId: null, name: "Configured key 1" },
  target: { type: "key", id: 7, label: "Front desk" },
  detail: null,
  requestId: "0b6f7c1e-3f1a-4d8e-9a55-2c1d7e9b4f10",
  clientAddress: "203.0.113.7",
};

const EXAMPLE_STAFF = {
  id: 4,
  email: "sam@example-store.com",
  name: "Sam Rivera",
  role: "write",
  createdAt: "2026-11-25T09:30:00.000Z",
  createdBy: "Alex Admin",
  lastSignInAt: "2026-11-25T10:02:11.000Z",
  disabledAt: null,
};
const EXAMPLE_PASSKEY = {
  id: 12,
  name: "Sam's laptop",
  createdAt: "2026-11-25T09:35:00.000Z",
  lastUsedAt: "2026-11-25T10:02:11.000Z",
};

const EXAMPLE_SESSION = {
  id: 31,
  browser: "Firefox on Linux",
  signedInAt: "2026-11-25T09:36:00.000Z",
  lastActiveAt: "2026-11-25T10:02:11.000Z",
  expiresAt: "2026-12-02T09:36:00.000Z",
  current: true,
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
    [RecoverWebhook, "RecoverWebhook"],
    [RecoveredEvents, "RecoveredEvents"],
    [Deliveries, "Deliveries"],
    [StaffMember, "StaffMember"],
    [StaffMembers, "StaffMembers"],
    [NewStaffMember, "NewStaffMember"],
    [InvitedStaffMember, "InvitedStaffMember"],
    [StaffRoleChange, "StaffRoleChange"],
    [Account, "Account"],
    [StaffSessionSummary, "StaffSessionSummary"],
    [PasskeyRegistrationOptions, "PasskeyRegistrationOptions"],
    [PasskeyAuthenticationOptions, "PasskeyAuthenticationOptions"],
    [Passkey, "Passkey"],
    [SessionToken, "SessionToken"],
    [InvitationLookup, "InvitationLookup"],
    [Invitation, "Invitation"],
    [SignInOptions, "SignInOptions"],
    [ErrorBody, "Error"],
  ]),
  nestedSchemas: [
    {
      name: "Scope",
      after: "Session",
      from: (components) => (components["Session"]?.["properties"] as Record<string, unknown>)["scope"],
    },
    { name: "AuditEvent", after: "AuditEvents", from: (components) => components["AuditEvents"]?.["items"] },
  ],
  schemaExamples: {
    Session: { keyId: "7", staffId: null, name: "Front desk", scope: "read", expiresAt: "2027-06-30T00:00:00.000Z" },
    StaffMember: EXAMPLE_STAFF,
    StaffMembers: [EXAMPLE_STAFF],
    NewStaffMember: { email: "sam@example-store.com", name: "Sam Rivera", role: "write" },
    InvitedStaffMember: {
      staff: { ...EXAMPLE_STAFF, lastSignInAt: null },
      invitationUrl: "https://admin.example-store.com/invite#Vq3x9TbZ0sXkR2mW7yLdN4cFhJ8pGtA1eUoB6iQvM5z",
      expiresAt: "2026-11-26T09:30:00.000Z",
    },
    StaffRoleChange: { role: "admin" },
    Account: {
      staff: EXAMPLE_STAFF,
      passkeys: [EXAMPLE_PASSKEY],
      sessions: [EXAMPLE_SESSION],
    },
    Passkey: EXAMPLE_PASSKEY,
    StaffSessionSummary: EXAMPLE_SESSION,
    PasskeyRegistrationOptions: {
      rp: { name: "Petstore", id: "admin.example-store.com" },
      user: { id: "NA", name: "sam@example-store.com", displayName: "Sam Rivera" },
      challenge: "3q2-7wAAAAA",
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    },
    PasskeyAuthenticationOptions: {
      challenge: "3q2-7wAAAAA",
      rpId: "admin.example-store.com",
      userVerification: "required",
    },
    SessionToken: { token: "pst_Vq3x9TbZ0sXkR2mW7yLdN4cFhJ8pGtA1eUoB6iQvM5z", expiresAt: "2026-11-25T10:12:11.000Z" },
    InvitationLookup: { token: "Vq3x9TbZ0sXkR2mW7yLdN4cFhJ8pGtA1eUoB6iQvM5z" },
    Invitation: {
      name: "Sam Rivera",
      email: "sam@example-store.com",
      role: "write",
      expiresAt: "2026-11-26T09:30:00.000Z",
    },
    SignInOptions: { passkeys: true, singleSignOn: { displayName: "Acme Workspace" } },
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
    RecoverWebhook: { since: "2026-11-27T08:00:00.000Z" },
    RecoveredEvents: { queued: 14 },
    Error: errorExample(403, "FORBIDDEN", "This operation needs a key of scope admin; this key has scope read."),
  },
  parameters: {
    "query:limit": {
      description: "Maximum number of events to return.",
      schema: { type: "integer", format: "int32", minimum: LIMIT_MIN, maximum: LIMIT_MAX, default: LIMIT_DEFAULT },
      example: LIMIT_DEFAULT,
    },
    "query:after": {
      description:
        "Continue the log after (older than) this event id; the `Link` header of a page that has more carries it.",
      schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
      example: 1042,
    },
    "listKeys query:limit": {
      description: `Maximum number of keys to return (a page; the newest first).`,
      schema: { type: "integer", format: "int32", minimum: 1, maximum: LIST_KEYS_MAX, default: LIST_KEYS_MAX },
      example: 100,
    },
    "listKeys query:after": {
      description:
        "Continue the list after (older than) this key id; the `Link` header of a page that has more carries it.",
      schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
      example: 1042,
    },
    "query:createdByStaffId": {
      description: "Only the keys this person created (through their session), revoked ones included.",
      schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
      example: 4,
    },
    "query:action": {
      description: "Only events of this action.",
      schema: { type: "string", enum: [...AUDIT_ACTIONS] },
      example: "key.revoked",
    },
    "query:targetType": {
      description: "Only events about a pet, or about a key.",
      schema: { type: "string", enum: ["pet", "key"] },
      example: "pet",
    },
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
    "path:staffId": {
      description: "The staff member's id.",
      schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
      example: 4,
    },
    "path:sessionId": {
      description: "The browser session's id (as getAccount lists them).",
      schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
      example: 31,
    },
    "path:passkeyId": {
      description: "The passkey's id (one of the signed-in person's).",
      schema: { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID },
      example: 12,
    },
    "query:code": { description: "The authorization code the identity provider returns." },
    "query:state": { description: "The `state` sent at the start, returned by the identity provider." },
    "query:error": { description: "The identity provider's error code, when it refused." },
    "query:error_description": { description: "The identity provider's words about its error." },
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
    listKeys: {
      "200": {
        description: "A page of issued keys, newest first, at most `limit` of them, revoked and expired ones included.",
      },
    },
    createKey: { "201": { description: "The key, and its secret: shown this once, never again." } },
    revokeKey: { "200": { description: "The revoked key; revoking it again answers the same `revokedAt`." } },
    listAuditEvents: { "200": { description: "A page of events, newest first, at most `limit` of them." } },
    listWebhooks: { "200": { description: "Every webhook endpoint, newest first." } },
    createWebhook: {
      "201": { description: "The endpoint, and its signing secret: shown this once (and at a rotation), never again." },
    },
    getWebhook: { "200": { description: "The endpoint." } },
    updateWebhook: { "200": { description: "The endpoint as changed." } },
    deleteWebhook: { "204": { description: "Deleted, with its deliveries." } },
    rotateWebhookSecret: {
      "200": { description: "The endpoint and its new secret; the old one signs too for 24 hours." },
    },
    sendTestEvent: { "202": { description: "The test delivery, queued: it is sent at once." } },
    listDeliveries: {
      "200": { description: "A page of the endpoint's deliveries, newest first, at most `limit` of them." },
    },
    resendDelivery: {
      "202": { description: "The delivery, pending again: a new attempt is made at once, with the same `webhook-id`." },
      "409": {
        description:
          "An attempt of this delivery is being sent now: one attempt at a time per delivery. Resend once it has ended.",
        example: errorExample(
          409,
          "CONFLICT",
          "Delivery 211 is being sent now: resend it once this attempt has ended.",
        ),
      },
    },
    recoverWebhook: {
      "202": {
        description: "How many events were queued to be sent again (0 when it has answered every one of them).",
      },
      "409": {
        description: "The endpoint is disabled: enable it, then recover.",
        example: errorExample(409, "CONFLICT", "The endpoint is disabled: enable it, then recover its events."),
      },
    },
    listStaff: { "200": { description: "Every staff member, newest first." } },
    inviteStaff: { "201": { description: "The person, and their invitation link: shown this once, never again." } },
    changeStaffRole: { "200": { description: "The person with their new role." } },
    disableStaff: {
      "200": { description: "The disabled person; disabling them again answers the same `disabledAt`." },
    },
    endSession: { "200": { description: "The ended session." } },
    getAccount: {
      "200": { description: "The signed-in person, their passkeys and open sessions." },
      "403": {
        description: "A key (or a key's session) called: this operation is a person's.",
        example: errorExample(403, "FORBIDDEN", "getAccount is for a signed-in person; an API key cannot call it."),
      },
    },
    renamePasskey: { "200": { description: "The passkey with its new name." } },
    removePasskey: {
      "204": { description: "Removed." },
      "400": { description: "It is the person's last passkey, or the id is malformed." },
    },
    signOutEverywhere: { "204": { description: "Every session of the person has ended." } },
    addPasskeyOptions: { "200": { description: "The WebAuthn registration options." } },
    addPasskey: { "201": { description: "The new passkey." } },
    createSessionToken: {
      "201": { description: "A bearer token, valid 10 minutes: keep it in memory only." },
      "401": {
        description: "No session cookie, or its session has ended or expired.",
        example: errorExample(401, "UNAUTHORIZED", "Sign in first: this browser has no session, or it has ended."),
      },
      "403": {
        description: "No `Origin` header, or another origin than the admin app's.",
        example: errorExample(403, "FORBIDDEN", "A session token is given only to the admin app's own origin."),
      },
    },
    signOut: {
      "204": { description: "Signed out: the session has ended on the server, and the cookie is cleared." },
      "401": { description: "No session cookie, or its session had ended or expired already; the cookie is cleared." },
      "403": { description: "No `Origin` header, or another origin than the admin app's." },
    },
    startKeySession: {
      "201": { description: "The session cookie is set; the answer is who is signed in." },
      "403": { description: "A session token was sent: a browser session starts with an API key only." },
    },
    getInvitation: {
      "200": { description: "The invitation is valid: who it is for." },
      "404": {
        description: "The invitation has expired or was already used (or never existed).",
        example: errorExample(404, "NOT_FOUND", "This invitation has expired or was already used."),
      },
    },
    invitationPasskeyOptions: {
      "200": { description: "The WebAuthn registration options." },
      "404": {
        description:
          "The invitation has expired or was already used (or never existed), or passkeys are off (no ADMIN_ORIGIN).",
      },
    },
    acceptInvitation: {
      "201": { description: "The passkey is stored and the person signed in (the session cookie is set)." },
      "404": {
        description:
          "The invitation has expired or was already used (or never existed), or passkeys are off (no ADMIN_ORIGIN).",
      },
    },
    passkeySignInOptions: {
      "200": { description: "The WebAuthn authentication options." },
      "404": { description: "Passkeys are off (no ADMIN_ORIGIN)." },
    },
    passkeySignIn: {
      "200": { description: "Signed in: the session cookie is set." },
      "401": { description: "The passkey is unknown, its answer does not verify, or its person is disabled." },
      "404": { description: "Passkeys are off (no ADMIN_ORIGIN)." },
    },
    getSignInOptions: {
      "200": { description: "The ways to sign in besides an API key." },
    },
    ssoStart: {
      "302": {
        description:
          "To the identity provider (or, when it cannot be reached, to the sign-in page with `?error=unavailable`).",
      },
      "404": { description: "Single sign-on is not configured." },
    },
    ssoCallback: {
      "302": { description: "Signed in, to the admin app; or refused, to its sign-in page with the reason." },
      "400": { description: "The callback's query is malformed." },
      "404": { description: "Single sign-on is not configured." },
    },
  },
  requestBodies: {
    createKey: { description: "The key to issue. `name` and `scope` are required; `expiresAt` must be in the future." },
    revokeKey: { description: "No body; an empty JSON object is accepted too.", required: false },
    createWebhook: {
      description: "The endpoint to register. `url` is required; `eventTypes` empty or absent: every type.",
    },
    updateWebhook: { description: "The fields to change; absent fields stay as they are." },
    rotateWebhookSecret: { description: "No body; an empty JSON object is accepted too.", required: false },
    sendTestEvent: { description: "No body; an empty JSON object is accepted too.", required: false },
    resendDelivery: { description: "No body; an empty JSON object is accepted too.", required: false },
    recoverWebhook: { description: "The window: `since` is required, `until` defaults to now." },
    inviteStaff: { description: "The person to invite: `email`, `name` and `role`, all required." },
    changeStaffRole: { description: "The new role." },
    disableStaff: { description: "No body; an empty JSON object is accepted too.", required: false },
    endSession: { description: "No body; an empty JSON object is accepted too.", required: false },
    renamePasskey: { description: "The passkey's new name." },
    signOutEverywhere: { description: "No body; an empty JSON object is accepted too.", required: false },
    addPasskeyOptions: { description: "No body; an empty JSON object is accepted too.", required: false },
    addPasskey: {
      description: "The authenticator's answer (RegistrationResponseJSON) and an optional name for the passkey.",
    },
    createSessionToken: { description: "No body; an empty JSON object is accepted too.", required: false },
    signOut: { description: "No body; an empty JSON object is accepted too.", required: false },
    startKeySession: { description: "No body; an empty JSON object is accepted too.", required: false },
    getInvitation: { description: "The invitation link's token (after `#`)." },
    invitationPasskeyOptions: { description: "The invitation link's token." },
    acceptInvitation: {
      description:
        "The invitation link's token, the authenticator's answer (RegistrationResponseJSON) and an optional name for the passkey.",
    },
    passkeySignInOptions: { description: "No body; an empty JSON object is accepted too.", required: false },
    passkeySignIn: { description: "The authenticator's answer (AuthenticationResponseJSON)." },
  },
  headers: {
    ...TRANSPORT_HEADERS,
    Link: {
      description:
        '`<...>; rel="next"`, the next (older) page of the activity log or of the deliveries, when there may be one.',
      schema: { type: "string", maxLength: 2048, pattern: '^<[^>]+>; rel="next"$' },
      example: '</admin/v1/audit-events?limit=20&after=1023>; rel="next"',
    },
    "WWW-Authenticate": {
      description:
        'The challenge (RFC 6750): on a 401 the scheme; on a 403 `error="insufficient_scope"` and the `scope` needed.',
      schema: { type: "string", maxLength: 200 },
      example: 'Bearer realm="petstore", error="insufficient_scope", scope="admin"',
    },
  },
  commonHeaders: TRANSPORT_COMMON_HEADERS,
  statusHeaders: { ...TRANSPORT_STATUS_HEADERS, "401": ["WWW-Authenticate"], "403": ["WWW-Authenticate"] },
  operationHeaders: {
    listKeys: { "200": ["Link"] },
    listAuditEvents: { "200": ["Link"] },
    listDeliveries: { "200": ["Link"] },
  },
};

/**
 * The OpenAPI 3 document of the staff-access operations (`/admin/v1`), served
 * beside the interface's own. `servers` are the interface's, in their order,
 * each with its final `/v1` replaced by `/admin/v1`.
 */
export function buildAccessOpenApiDocument(servers: OpenApiServers): OpenApiDocument {
  const adminUrl = (url: string) => {
    if (!url.endsWith(API_PATH_PREFIX))
      throw new Error(`Petstore staff access: server ${url} does not end in ${API_PATH_PREFIX}`);
    return url.slice(0, -API_PATH_PREFIX.length) + ADMIN_API_PATH_PREFIX;
  };
  return buildContractDocument(adminContract, {
    info: {
      title: "Petstore staff access",
      version: INTERFACE_VERSION,
      description:
        `Issued API keys with scopes (${SCOPES.join(", ")}), their revocation, the activity log, and webhook endpoints. ` +
        "Staff who sign in as themselves (passkeys, single sign-on) and their browser sessions. " +
        "Every bearer operation takes an API key or a session token (`pst_`, bought with the session cookie); a scope that does not cover the operation gets 403 FORBIDDEN. " +
        "Each operation's `security` says its credential: the bearer, the session cookie, or none (sign-in steps carrying their own one-time secret).",
      contact: CONTACT,
      license: LICENSE,
    },
    servers: servers.map(({ url, description }) => ({ url: adminUrl(url), description })),
    tags: [
      {
        name: "session",
        description:
          "Who is calling, and the browser session: start one with a key, buy a token with its cookie, sign out.",
      },
      { name: "keys", description: "Issued API keys: create, list, revoke." },
      { name: "activity", description: "The append-only activity log." },
      {
        name: "staff",
        description: "People who sign in as themselves: invite, change a role, disable, end a session.",
      },
      { name: "account", description: "The signed-in person's own passkeys and sessions (a person's token only)." },
      {
        name: "sign-in",
        description: "Invitations, passkeys and single sign-on: each carries its own one-time secret.",
      },
      {
        name: "webhooks",
        description: "Webhook endpoints: signed calls when pets and keys change, and the log of their deliveries.",
      },
    ],
    pathPrefix: ADMIN_API_PATH_PREFIX,
    securityDescription: "An API key, or a session token (`pst_...`), as `Authorization: Bearer <API_KEY>`.",
    words: WORDS,
  });
}
