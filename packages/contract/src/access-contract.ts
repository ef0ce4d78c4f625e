import { initContract } from "@ts-rest/core";
import {
  ApiKey,
  ApiKeys,
  AuditEvents,
  CreatedApiKey,
  KeyIdParams,
  ListAuditEventsQuery,
  ListKeysQuery,
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
import {
  Account,
  DisableStaffBody,
  EmptyBody,
  Invitation,
  InvitationLookup,
  InvitationRegistration,
  InvitationRegistrationOptionsRequest,
  InvitedStaffMember,
  NewStaffMember,
  Passkey,
  PasskeyAuthentication,
  PasskeyAuthenticationOptions,
  PasskeyChanges,
  PasskeyIdParams,
  PasskeyRegistration,
  PasskeyRegistrationOptions,
  SessionIdParams,
  SessionToken,
  SignInOptions,
  SsoCallbackQuery,
  StaffIdParams,
  StaffMember,
  StaffMembers,
  StaffRoleChange,
  StaffSessionSummary,
} from "./staff-schemas.js";

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
      metadata: { credential: "bearer", scope: "read", tag: "session" } satisfies RouteMetadata,
      summary: "Who this key is",
      description: "The key the request was made with: its id, name, scope and expiry. Any valid key may ask.",
      responses: { 200: Session, 401: ErrorBody },
    },
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
      description: "Creates a key with a name, a scope and an optional expiry. The answer carries its secret, this once: only its SHA-256 is stored.",
      responses: { 201: CreatedApiKey, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    revokeKey: {
      method: "POST",
      path: "/keys/:keyId/revoke",
      contentType: "application/json",
      pathParams: KeyIdParams,
      body: RevokeKeyBody,
      metadata: { credential: "bearer", scope: "admin", tag: "keys" } satisfies RouteMetadata,
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
      metadata: { credential: "bearer", scope: "admin", tag: "activity" } satisfies RouteMetadata,
      summary: "Activity log",
      description:
        "Audit events, newest first, optionally filtered by action and target. A page that may have more carries " +
        '`Link: <...>; rel="next"`.',
      responses: { 200: AuditEvents, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
    },
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
      responses: { 201: WebhookWithSecret, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody },
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
      description: "Changes its URL, description, event types or whether it is enabled; enabling it clears `disabledReason`.",
      responses: { 200: Webhook, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
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
      body: RevokeKeyBody,
      metadata: { credential: "bearer", scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
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
      metadata: { credential: "bearer", scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
      summary: "Send a test event",
      description: "Queues a `webhook.test` event for this endpoint alone, whatever its event types; it is sent at once, as any delivery.",
      responses: { 202: Delivery, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
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
      body: RevokeKeyBody,
      metadata: { credential: "bearer", scope: "admin", tag: "webhooks" } satisfies RouteMetadata,
      summary: "Resend a delivery",
      description:
        "A new attempt, now, with the same `webhook-id`, whatever the delivery's status. " +
        "While an attempt of this delivery is being sent: 409 `CONFLICT` (one attempt at a time per delivery).",
      responses: { 202: Delivery, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    listStaff: {
      method: "GET",
      path: "/staff",
      metadata: { credential: "bearer", scope: "admin", tag: "staff" } satisfies RouteMetadata,
      summary: "List staff",
      description: "Every staff member, newest first, disabled ones included.",
      responses: { 200: StaffMembers, 401: ErrorBody, 403: ErrorBody },
    },
    inviteStaff: {
      method: "POST",
      path: "/staff",
      contentType: "application/json",
      body: NewStaffMember,
      metadata: { credential: "bearer", scope: "admin", tag: "staff" } satisfies RouteMetadata,
      summary: "Invite a person",
      description:
        "Adds a staff member and answers their one-time invitation link (`<ADMIN_ORIGIN>/invite#<token>`, valid 24 hours), this once: " +
        "only the token's SHA-256 is stored. An email that is already a staff member's invites them again while they have never signed in " +
        "and hold no passkey (a lost or expired link): their name and role as sent, a new link, and the earlier link stops working. " +
        "Otherwise (they signed in, hold a passkey, or are disabled) it is refused (400).",
      responses: { 201: InvitedStaffMember, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    changeStaffRole: {
      method: "POST",
      path: "/staff/:staffId/role",
      contentType: "application/json",
      pathParams: StaffIdParams,
      body: StaffRoleChange,
      metadata: { credential: "bearer", scope: "admin", tag: "staff" } satisfies RouteMetadata,
      summary: "Change a person's role",
      description: "Sets the role; their sessions and tokens end at once on this API process and within 2 seconds on every other, so the new role holds from their next sign-in.",
      responses: { 200: StaffMember, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    disableStaff: {
      method: "POST",
      path: "/staff/:staffId/disable",
      contentType: "application/json",
      pathParams: StaffIdParams,
      body: DisableStaffBody,
      metadata: { credential: "bearer", scope: "admin", tag: "staff" } satisfies RouteMetadata,
      summary: "Disable a person",
      description:
        "Disables the person: their sessions and tokens end at once on this API process and within 2 seconds on every other, and they cannot sign in again. " +
        "`revokeKeys: true` also revokes every active key they created, in the same transaction, each with a `key.revoked` event (default false: their keys keep working). " +
        "Disabling a disabled person answers them again, unchanged (and revokes their keys if asked).",
      responses: { 200: StaffMember, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    endSession: {
      method: "POST",
      path: "/sessions/:sessionId/end",
      contentType: "application/json",
      pathParams: SessionIdParams,
      body: EmptyBody,
      metadata: { credential: "bearer", scope: "admin", tag: "staff" } satisfies RouteMetadata,
      summary: "End a browser session",
      description: "Ends one browser session (a person's or a key's) and its tokens, at once on this API process and within 2 seconds on every other.",
      responses: { 200: StaffSessionSummary, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    getAccount: {
      method: "GET",
      path: "/account",
      metadata: { credential: "personToken", scope: "read", tag: "account" } satisfies RouteMetadata,
      summary: "Your account",
      description: "The signed-in person, their passkeys and their open browser sessions. A key is refused (403).",
      responses: { 200: Account, 401: ErrorBody, 403: ErrorBody },
    },
    renamePasskey: {
      method: "PATCH",
      path: "/account/passkeys/:passkeyId",
      contentType: "application/json",
      pathParams: PasskeyIdParams,
      body: PasskeyChanges,
      metadata: { credential: "personToken", scope: "read", tag: "account" } satisfies RouteMetadata,
      summary: "Rename one of your passkeys",
      description: "Gives one of the signed-in person's passkeys a new name.",
      responses: { 200: Passkey, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    removePasskey: {
      method: "DELETE",
      path: "/account/passkeys/:passkeyId",
      pathParams: PasskeyIdParams,
      body: c.noBody(),
      metadata: { credential: "personToken", scope: "read", tag: "account" } satisfies RouteMetadata,
      summary: "Remove one of your passkeys",
      description: "Removes one of the signed-in person's passkeys; the last one cannot be removed (400).",
      responses: { 204: c.noBody(), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
    },
    signOutEverywhere: {
      method: "POST",
      path: "/account/sign-out-everywhere",
      contentType: "application/json",
      body: EmptyBody,
      metadata: { credential: "personToken", scope: "read", tag: "account" } satisfies RouteMetadata,
      summary: "Sign out everywhere",
      description: "Ends every browser session of the signed-in person, this one included, and their tokens.",
      responses: { 204: c.noBody(), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    addPasskeyOptions: {
      method: "POST",
      path: "/account/passkeys/registration/options",
      contentType: "application/json",
      body: EmptyBody,
      metadata: { credential: "personToken", scope: "read", tag: "account" } satisfies RouteMetadata,
      summary: "Start adding a passkey",
      description: "WebAuthn registration options for one more passkey of the signed-in person.",
      responses: { 200: PasskeyRegistrationOptions, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    addPasskey: {
      method: "POST",
      path: "/account/passkeys/registration",
      contentType: "application/json",
      body: PasskeyRegistration,
      metadata: { credential: "personToken", scope: "read", tag: "account" } satisfies RouteMetadata,
      summary: "Add a passkey",
      description: "Verifies the authenticator's answer and stores the passkey (its public key, never a secret).",
      responses: { 201: Passkey, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    createSessionToken: {
      method: "POST",
      path: "/session/token",
      contentType: "application/json",
      body: EmptyBody,
      metadata: { credential: "cookie", tag: "session" } satisfies RouteMetadata,
      summary: "A token for this browser session",
      description:
        "With the session cookie and an `Origin` header equal to the admin app's origin: a bearer token valid 10 minutes, of the person's role now " +
        "(a key's session: the key's scope). No `Origin`, or another one: 403. No session, or an ended or expired one: 401. " +
        'At most TOKENS_PER_SESSION_PER_MIN tokens a minute per session (default 30; `RateLimit` fields `"session-tokens"`), then 429 with `Retry-After`.',
      responses: { 201: SessionToken, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody },
    },
    signOut: {
      method: "POST",
      path: "/session/sign-out",
      contentType: "application/json",
      body: EmptyBody,
      metadata: { credential: "cookie", tag: "session" } satisfies RouteMetadata,
      summary: "Sign out",
      description:
        "Ends this browser session on the server, with its tokens, and clears the cookie. Without a live session: 401, and the cookie is cleared too; " +
        "that 401 spends the client address's AUTH_FAILURES_PER_MIN budget, and past it the answer is 429 with `Retry-After`.",
      responses: { 204: c.noBody(), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    startKeySession: {
      method: "POST",
      path: "/session/start",
      contentType: "application/json",
      body: EmptyBody,
      metadata: { credential: "key", scope: "read", tag: "session" } satisfies RouteMetadata,
      summary: "Start a browser session with a key",
      description:
        "With an API key as bearer (not a session token): sets the session cookie, so the browser keeps no secret. The session ends when the key is revoked or expires.",
      responses: { 201: Session, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    getInvitation: {
      method: "POST",
      path: "/invitations/lookup",
      contentType: "application/json",
      body: InvitationLookup,
      metadata: { credential: "none", tag: "sign-in" } satisfies RouteMetadata,
      summary: "Read an invitation",
      description:
        "Who an invitation link is for. The token goes in the body, never in a URL. A used, expired or unknown one: 404, and it spends the address's failure budget.",
      responses: { 200: Invitation, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    invitationPasskeyOptions: {
      method: "POST",
      path: "/passkeys/registration/options",
      contentType: "application/json",
      body: InvitationRegistrationOptionsRequest,
      metadata: { credential: "none", tag: "sign-in" } satisfies RouteMetadata,
      summary: "Start creating a passkey from an invitation",
      description:
        "WebAuthn registration options for the invited person; the invitation token is the credential. Each call spends one of the client address's " +
        "sign-in starts (AUTH_FAILURES_PER_MIN a minute, shared with passkey sign-ins and `/sso/start`): past them 429 with `Retry-After`, before a challenge is stored.",
      responses: { 200: PasskeyRegistrationOptions, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    acceptInvitation: {
      method: "POST",
      path: "/passkeys/registration",
      contentType: "application/json",
      body: InvitationRegistration,
      metadata: { credential: "none", tag: "sign-in" } satisfies RouteMetadata,
      summary: "Create a passkey from an invitation, and sign in",
      description: "Verifies the authenticator's answer, stores the passkey, uses up the invitation and signs the person in (sets the session cookie).",
      responses: { 201: Session, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    passkeySignInOptions: {
      method: "POST",
      path: "/passkeys/authentication/options",
      contentType: "application/json",
      body: EmptyBody,
      metadata: { credential: "none", tag: "sign-in" } satisfies RouteMetadata,
      summary: "Start signing in with a passkey",
      description:
        "WebAuthn authentication options (a one-time challenge; discoverable credentials, user verification required). " +
        "Each stores its challenge, so the sign-ins a client address may start are counted: `AUTH_FAILURES_PER_MIN` a minute " +
        "(a budget of their own, not the failures'), then `429` with `Retry-After`; the `RateLimit` fields name it `\"sign-in-starts\"`.",
      responses: { 200: PasskeyAuthenticationOptions, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    passkeySignIn: {
      method: "POST",
      path: "/passkeys/authentication",
      contentType: "application/json",
      body: PasskeyAuthentication,
      metadata: { credential: "none", tag: "sign-in" } satisfies RouteMetadata,
      summary: "Sign in with a passkey",
      description: "Verifies the authenticator's answer against the challenge and the stored passkey, then signs the person in (sets the session cookie).",
      responses: { 200: Session, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    getSignInOptions: {
      method: "GET",
      path: "/sign-in-options",
      metadata: { credential: "none", tag: "sign-in" } satisfies RouteMetadata,
      summary: "The ways to sign in",
      description:
        "What the sign-in page offers besides an API key: passkeys (when the server knows the admin app's origin) and single sign-on with its display name " +
        "(when an identity provider is configured). No credential: the page asks before anyone is signed in. Names no secret and no provider address.",
      responses: { 200: SignInOptions },
    },
    ssoStart: {
      method: "GET",
      path: "/sso/start",
      metadata: { credential: "none", tag: "sign-in" } satisfies RouteMetadata,
      summary: "Start single sign-on",
      description:
        "Redirects to the identity provider (authorization code flow with PKCE, `state` and `nonce`) and sets the sign-in's own cookie (`__Host-petstore-sso`: HttpOnly, Secure, SameSite=Lax, 10 minutes). " +
        "404 when single sign-on is not configured (the OIDC_* settings, or ADMIN_ORIGIN, unset). The provider unreachable: a redirect to the sign-in page with `?error=unavailable`. " +
        "Each start spends one of the client address's sign-in starts; past them a redirect to the sign-in page with `?error=too-many` and `Retry-After`, and no flow starts.",
      responses: { 302: c.noBody(), 404: ErrorBody },
    },
    ssoCallback: {
      method: "GET",
      path: "/sso/callback",
      query: SsoCallbackQuery,
      metadata: { credential: "none", tag: "sign-in" } satisfies RouteMetadata,
      summary: "Single sign-on callback",
      description:
        "Where the identity provider returns (`<ADMIN_ORIGIN>/admin/v1/sso/callback`: the redirect URI to register). Checks `state` against the sign-in's cookie, redeems the code with the PKCE verifier, " +
        "verifies the ID token and its `nonce`, maps the role, and signs the person in: the session cookie is set and the browser goes to `<ADMIN_ORIGIN>/`. " +
        "Refused: the browser goes to `<ADMIN_ORIGIN>/sign-in?error=<code>` (a code of `SIGN_IN_ERRORS`), and the client address's failure budget is spent. " +
        "Either way the sign-in's cookie is cleared. The query (code and state) never reaches a log.",
      responses: { 302: c.noBody(), 400: ErrorBody, 404: ErrorBody },
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
