import { ADMIN_API_PATH_PREFIX, SIGN_IN_ERRORS, SignInOptions } from "@petstore/contract";
import { createContext, useContext } from "react";
import { API_ORIGIN } from "../api/api-origin.js";

export type { SignInOptions };

/**
 * What the page offers until the API has said (`getSignInOptions`), and if it cannot be asked:
 * passkeys and no single sign-on. A server without passkeys refuses their ceremonies with a sentence.
 */
export const DEFAULT_SIGN_IN_OPTIONS: SignInOptions = { passkeys: true, singleSignOn: null };

export const SignInOptionsContext = createContext<SignInOptions>(DEFAULT_SIGN_IN_OPTIONS);

export function useSignInOptions(): SignInOptions {
  return useContext(SignInOptionsContext);
}

/**
 * `GET /admin/v1/sign-in-options`: no credential, so a plain `fetch`, never through the clients that
 * attach (and would first ask for) a session token.
 */
export async function fetchSignInOptions(): Promise<SignInOptions> {
  const response = await fetch(`${API_ORIGIN}${ADMIN_API_PATH_PREFIX}/sign-in-options`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`sign-in options: ${response.status}`);
  return SignInOptions.parse(await response.json());
}

/** Where single sign-on starts: a full navigation, since it leaves for the identity provider. */
export function singleSignOnStartUrl(): string {
  return `${API_ORIGIN}${ADMIN_API_PATH_PREFIX}/sso/start`;
}

/** The sentences of the codes the API's single sign-on routes put in `?error=` (the contract's). */
export const SIGN_IN_REFUSALS = SIGN_IN_ERRORS;

export const NO_ROLE_MESSAGE = SIGN_IN_REFUSALS["no-role"];
export const SSO_RETRY_MESSAGE = SIGN_IN_REFUSALS.failed;

/**
 * What the sign-in page says for `?error=`. Only sentences the app knows are shown, never the query's
 * text itself: a link anyone can craft must not put words of theirs on the sign-in page. An unknown
 * code is a failed sign-in.
 */
export function signInRefusalMessage(error: string | null): string | null {
  if (error === null || error === "") return null;
  return Object.hasOwn(SIGN_IN_REFUSALS, error)
    ? SIGN_IN_REFUSALS[error as keyof typeof SIGN_IN_REFUSALS]
    : SSO_RETRY_MESSAGE;
}
