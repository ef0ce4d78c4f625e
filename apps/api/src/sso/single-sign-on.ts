import { timingSafeEqual } from "node:crypto";
import type { Scope } from "@petstore/contract";
import * as oidc from "openid-client";
import type { SingleSignOnSettings } from "../base/sso-settings.js";
import { SSO_CALLBACK_PATH } from "./callback-path.js";
import {
  FLOW_COOKIE_NAME,
  FLOW_MAX_AGE_SECONDS,
  flowCookieHeader,
  flowKey,
  openFlow,
  sealFlow,
} from "./flow-cookie.js";
import { claimAt, claimValues, highestRole } from "./role-claim.js";

export { loggableUrl, SSO_CALLBACK_PATH } from "./callback-path.js";
export { CLEARED_FLOW_COOKIE, FLOW_COOKIE_NAME, FLOW_MAX_AGE_SECONDS } from "./flow-cookie.js";

/**
 * Staff sign-in through an OpenID provider: the authorization code flow with PKCE (S256), `state` and
 * `nonce`, through openid-client. This module knows no HTTP framework and no person record: it turns
 * a start into a redirect and a flow cookie, and a callback into verified claims with a role, or a
 * refusal. The routes (`GET /admin/v1/sso/start`, `GET /admin/v1/sso/callback`) and the person it
 * signs in are wired elsewhere.
 */

/** Asked for always; OIDC_SCOPES adds to them. */
export const BASE_SCOPES = ["openid", "email", "profile"] as const;
export const NO_ROLE_MESSAGE = "Your account has no role in this store.";
/** A person's name is 1..100 characters. */
const NAME_MAX_LENGTH = 100;

export interface VerifiedSignIn {
  /** The person's identity is `issuer` and `subject` together; the email may change at the provider. */
  issuer: string;
  subject: string;
  email: string;
  /** `email_verified` was `true`; false when the provider said false or did not say (Entra ID omits it). */
  emailVerified: boolean;
  /** 1..100 characters: `name`, else given and family names, else the email. */
  name: string;
  /** The highest role that OIDC_ROLE_MAP gives the role claim's values, read at this sign-in. */
  role: Scope;
}

export type SignInRefusalReason =
  /** No flow cookie: the callback came without a start in this browser (or after 10 minutes). */
  | "flow-missing"
  | "flow-expired"
  /** The flow cookie was changed, made up, or sealed under another secret. */
  | "flow-invalid"
  /** The callback's `state` is not this browser's flow's. */
  | "state-mismatch"
  /** The provider answered the authorization with an error (`access_denied` when the person cancelled). */
  | "provider-error"
  /** The token endpoint refused the code (used, expired, or the PKCE verifier does not match). */
  | "token-exchange-failed"
  /** A check of the answer failed: the ID token's signature, issuer, audience, expiry or `nonce`, or the `iss` parameter. */
  | "response-invalid"
  /** The provider could not be reached (discovery, token or userinfo endpoint). */
  | "provider-unreachable"
  | "no-email"
  | "no-role";

export interface SignInRefusal {
  reason: SignInRefusalReason;
  /** For the sign-in page. */
  message: string;
  /** For the log: what went wrong, never a code, token or secret. */
  detail: string;
}

export type FinishSignInResult = { ok: true; signIn: VerifiedSignIn } | { ok: false; refusal: SignInRefusal };

export interface FlowCookie {
  name: typeof FLOW_COOKIE_NAME;
  value: string;
  /** The whole `Set-Cookie` header value: `HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=600`. */
  setCookie: string;
}

export interface StartedSignIn {
  /** Where to send the browser (a `302`/`303`). */
  authorizationUrl: URL;
  flowCookie: FlowCookie;
}

export interface SingleSignOnOptions {
  /** ADMIN_ORIGIN, like `https://admin.example-store.com`: the redirect URI's base. */
  adminOrigin: string;
  /**
   * The fetch that reaches the provider; default the global one. Tests pass one that trusts their
   * throwaway certificate authority (a spawned API gets NODE_EXTRA_CA_CERTS instead).
   */
  fetch?: oidc.CustomFetch;
  /** What seals the flow cookie; default the client secret (shared by every replica). */
  flowSecret?: string;
  /** Milliseconds since the epoch; tests move it to expire a flow. */
  now?: () => number;
  /** Seconds each request to the provider may take (default 10). */
  timeoutSeconds?: number;
}

export interface SingleSignOn {
  /** `Sign in with <displayName>`. */
  readonly displayName: string;
  /** `<ADMIN_ORIGIN>/admin/v1/sso/callback`. */
  readonly redirectUri: string;
  /** The authorization request and the flow cookie to set with the redirect. Throws `IdentityProviderUnreachable`. */
  startSignIn(): Promise<StartedSignIn>;
  /**
   * Checks the callback against the flow cookie (the value of `__Host-petstore-sso`, or undefined when
   * absent), redeems the code, verifies the ID token and maps the role. Only the callback URL's query
   * is read (an absolute URL or a path like `req.originalUrl`): it is put on the redirect URI, so a
   * forged Host header changes nothing. Answer the
   * browser with `CLEARED_FLOW_COOKIE` whatever the outcome.
   */
  finishSignIn(callbackUrl: URL | string, flowCookie: string | undefined): Promise<FinishSignInResult>;
}

/** Discovery failed: the provider is down, unreachable, or not an OpenID provider at OIDC_ISSUER. */
export class IdentityProviderUnreachable extends Error {
  override name = "IdentityProviderUnreachable";
}

const RETRY_MESSAGE = "Single sign-on did not complete. Please try again.";

const refusal = (reason: SignInRefusalReason, detail: string, message = RETRY_MESSAGE): FinishSignInResult => ({
  ok: false,
  refusal: { reason, message, detail },
});

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * `client_secret_basic` (the OpenID default) when the provider lists it or lists nothing, else
 * `client_secret_post`, chosen from the discovered metadata at each call.
 */
function clientSecretAuth(secret: string): oidc.ClientAuth {
  const basic = oidc.ClientSecretBasic(secret);
  const post = oidc.ClientSecretPost(secret);
  return (server, client, body, headers) => {
    const supported = server.token_endpoint_auth_methods_supported;
    const useBasic =
      !supported || supported.includes("client_secret_basic") || !supported.includes("client_secret_post");
    (useBasic ? basic : post)(server, client, body, headers);
  };
}

/** What openid-client threw while redeeming the code or reading userinfo, as a refusal. */
function refusalOf(error: unknown): FinishSignInResult {
  if (error instanceof oidc.AuthorizationResponseError) {
    const detail = `the provider answered ${error.error}${error.error_description ? `: ${error.error_description}` : ""}`;
    return error.error === "access_denied"
      ? refusal("provider-error", detail, "Sign-in was cancelled at the identity provider.")
      : refusal("provider-error", detail);
  }
  if (error instanceof oidc.ResponseBodyError) {
    return refusal(
      "token-exchange-failed",
      `the provider refused the code: ${error.error}${error.error_description ? `: ${error.error_description}` : ""}`,
    );
  }
  if (error instanceof oidc.ClientError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return refusal("response-invalid", `${error.code ?? "ClientError"}: ${error.message}${cause}`);
  }
  if (
    error instanceof TypeError ||
    (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError"))
  ) {
    return refusal("provider-unreachable", `the provider could not be reached: ${error.message}`);
  }
  return refusal("response-invalid", error instanceof Error ? `${error.name}: ${error.message}` : String(error));
}

function nameOf(claims: Record<string, unknown>, email: string): string {
  const given = typeof claims["given_name"] === "string" ? claims["given_name"].trim() : "";
  const family = typeof claims["family_name"] === "string" ? claims["family_name"].trim() : "";
  const name =
    typeof claims["name"] === "string" && claims["name"].trim()
      ? claims["name"].trim()
      : `${given} ${family}`.trim() || email;
  return [...name].slice(0, NAME_MAX_LENGTH).join("");
}

export function createSingleSignOn(settings: SingleSignOnSettings, options: SingleSignOnOptions): SingleSignOn {
  const redirectUri = new URL(SSO_CALLBACK_PATH, options.adminOrigin).href;
  const key = flowKey(options.flowSecret ?? settings.clientSecret);
  const now = options.now ?? Date.now;
  const scope = [...new Set([...BASE_SCOPES, ...settings.extraScopes])].join(" ");

  // Discovered at first use and kept; a failure is not kept, so the next sign-in tries again.
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = () => {
    discovered ??= oidc
      .discovery(new URL(settings.issuer), settings.clientId, undefined, clientSecretAuth(settings.clientSecret), {
        ...(options.fetch ? { [oidc.customFetch]: options.fetch } : {}),
        timeout: options.timeoutSeconds ?? 10,
      })
      .catch((error: unknown) => {
        discovered = undefined;
        const reason =
          error instanceof Error
            ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ""}`
            : String(error);
        throw new IdentityProviderUnreachable(`single sign-on: discovery at ${settings.issuer} failed: ${reason}`, {
          cause: error,
        });
      });
    return discovered;
  };

  return {
    displayName: settings.displayName,
    redirectUri,

    async startSignIn() {
      const config = await configuration();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const authorizationUrl = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope,
        response_type: "code",
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
        state,
        nonce,
      });
      const value = sealFlow(
        { state, nonce, codeVerifier, expiresAt: Math.floor(now() / 1000) + FLOW_MAX_AGE_SECONDS },
        key,
      );
      return { authorizationUrl, flowCookie: { name: FLOW_COOKIE_NAME, value, setCookie: flowCookieHeader(value) } };
    },

    async finishSignIn(callbackUrl, flowCookie) {
      if (flowCookie === undefined || flowCookie === "") {
        return refusal(
          "flow-missing",
          "the callback came without the flow cookie",
          "The sign-in was not started in this browser, or took too long. Please try again.",
        );
      }
      const flow = openFlow(flowCookie, key, Math.floor(now() / 1000));
      if (flow === "expired")
        return refusal(
          "flow-expired",
          "the flow cookie is older than 10 minutes",
          "The sign-in took too long. Please try again.",
        );
      if (flow === "invalid")
        return refusal(
          "flow-invalid",
          "the flow cookie does not open (changed, made up, or sealed under another secret)",
        );

      const current = new URL(redirectUri);
      current.search = new URL(callbackUrl, redirectUri).search;
      const state = current.searchParams.get("state");
      if (state === null || !sameString(state, flow.state)) {
        return refusal(
          "state-mismatch",
          state === null ? "the callback has no state" : "the callback's state is not this flow's",
        );
      }

      let config: oidc.Configuration;
      try {
        config = await configuration();
      } catch (error) {
        return refusal("provider-unreachable", (error as Error).message);
      }
      let claims: Record<string, unknown>;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        const idToken = tokens.claims();
        if (idToken === undefined) return refusal("response-invalid", "the token response has no ID token");
        claims = { ...idToken };
        // The role claim (and the email) from the ID token, else from userinfo; the ID token wins where both say.
        if (claimAt(idToken, settings.roleClaim) === undefined || typeof idToken["email"] !== "string") {
          const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
          claims = { ...userinfo, ...idToken };
        }
      } catch (error) {
        return refusalOf(error);
      }

      const role = highestRole(claimValues(claimAt(claims, settings.roleClaim)), settings.roleMap);
      if (role === undefined) {
        return refusal("no-role", `no value of the ${settings.roleClaim} claim is in OIDC_ROLE_MAP`, NO_ROLE_MESSAGE);
      }
      const email = typeof claims["email"] === "string" ? claims["email"].trim() : "";
      if (email === "") {
        return refusal(
          "no-email",
          "neither the ID token nor userinfo has an email",
          "Your account at the identity provider has no email address.",
        );
      }
      return {
        ok: true,
        signIn: {
          issuer: String(claims["iss"]),
          subject: String(claims["sub"]),
          email,
          emailVerified: claims["email_verified"] === true || claims["email_verified"] === "true",
          name: nameOf(claims, email),
          role,
        },
      };
    },
  };
}
