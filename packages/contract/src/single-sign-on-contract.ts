import { initContract } from "@ts-rest/core";
import type { RouteMetadata } from "./route-metadata.js";
import { ErrorBody } from "./schemas.js";
import { SignInOptions, SsoCallbackQuery } from "./staff-schemas.js";

const c = initContract();

/** Single sign-on (OpenID Connect): what the sign-in page offers, its start, and the identity provider's return. Composed under `/admin/v1` by `adminContract`. */
export const singleSignOnContract = c.router({
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
});
