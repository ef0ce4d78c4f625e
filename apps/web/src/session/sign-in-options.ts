import { ADMIN_API_PATH_PREFIX } from "@petstore/contract";
import { createContext, useContext } from "react";
import { API_ORIGIN } from "../api/api-origin.js";

/** The ways in the API offers besides an API key (which is always there). */
export interface SignInOptions {
  /** Whether `Sign in with a passkey` is offered (the server knows the admin app's origin). */
  passkeys: boolean;
  /** Single sign-on, when the API has an identity provider configured: the button reads `Sign in with <displayName>`. */
  singleSignOn: { displayName: string } | null;
}

/**
 * What the page offers until the API says otherwise. The contract on this base has no operation
 * that tells whether single sign-on is configured and under what name, so the page offers passkeys
 * and no single sign-on unless this context says so (tests, or a provider fed by that operation).
 */
export const DEFAULT_SIGN_IN_OPTIONS: SignInOptions = { passkeys: true, singleSignOn: null };

export const SignInOptionsContext = createContext<SignInOptions>(DEFAULT_SIGN_IN_OPTIONS);

export function useSignInOptions(): SignInOptions {
  return useContext(SignInOptionsContext);
}

/** Where single sign-on starts: a full navigation, since it leaves for the identity provider. */
export function singleSignOnStartUrl(): string {
  return `${API_ORIGIN}${ADMIN_API_PATH_PREFIX}/sso/start`;
}

/**
 * Where a refused single sign-on sends the browser back: `/sign-in?error=<code>`, by the codes the
 * API's single sign-on routes use, each with the sentence the page shows.
 */
export const SIGN_IN_REFUSALS = {
  "no-role": "Your account has no role in this store.",
  disabled: "Your account is disabled. Ask an admin of this store.",
  "no-email": "Your account at the identity provider has no email address.",
  cancelled: "Sign-in was cancelled at the identity provider.",
  expired: "The sign-in took too long or was not started in this browser. Please try again.",
  unavailable: "The identity provider could not be reached. Please try again later.",
  "too-many": "Too many failed sign-in attempts from this address. Please wait a minute and try again.",
  failed: "Single sign-on did not complete. Please try again.",
} as const satisfies Record<string, string>;

export const NO_ROLE_MESSAGE = SIGN_IN_REFUSALS["no-role"];
export const SSO_RETRY_MESSAGE = SIGN_IN_REFUSALS.failed;

/**
 * What the sign-in page says for `?error=`. Only sentences the app knows are shown, never the query's
 * text itself: a link anyone can craft must not put words of theirs on the sign-in page. An unknown
 * code is a failed sign-in.
 */
export function signInRefusalMessage(error: string | null): string | null {
  if (error === null || error === "") return null;
  return Object.hasOwn(SIGN_IN_REFUSALS, error) ? SIGN_IN_REFUSALS[error as keyof typeof SIGN_IN_REFUSALS] : SSO_RETRY_MESSAGE;
}
