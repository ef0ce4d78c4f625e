import { ADMIN_API_PATH_PREFIX } from "@petstore/contract";
import { createContext, useContext } from "react";
import { API_ORIGIN } from "../api/api-origin.js";

/** The ways in the API offers besides a passkey and an API key. */
export interface SignInOptions {
  /** Single sign-on, when the API has an identity provider configured: the button reads `Sign in with <displayName>`. */
  singleSignOn: { displayName: string } | null;
}

/**
 * The contract has no operation yet that says whether single sign-on is configured and under what
 * name, so the page offers it only when this context says so (tests, or a provider once the API
 * answers it); by default it is not offered.
 */
export const SignInOptionsContext = createContext<SignInOptions>({ singleSignOn: null });

export function useSignInOptions(): SignInOptions {
  return useContext(SignInOptionsContext);
}

/** Where single sign-on starts: a full navigation, since it leaves for the identity provider. */
export function singleSignOnStartUrl(): string {
  return `${API_ORIGIN}${ADMIN_API_PATH_PREFIX}/sso/start`;
}

export const NO_ROLE_MESSAGE = "Your account has no role in this store.";
export const SSO_RETRY_MESSAGE = "Single sign-on did not complete. Please try again.";

/** The sentences a refused sign-in may come back with, by the short code or as the sentence itself. */
const REFUSALS: Record<string, string> = {
  "no-role": NO_ROLE_MESSAGE,
  disabled: "Your account is disabled. Ask an admin of this store.",
};

/**
 * What the sign-in page says for `?error=` (where single sign-on sends a refused person back). Only
 * sentences the app knows are shown, never the query's text itself: a link anyone can craft must not
 * put words of theirs on the sign-in page.
 */
export function signInRefusalMessage(error: string | null): string | null {
  if (error === null || error === "") return null;
  const known = REFUSALS[error];
  if (known) return known;
  if (Object.values(REFUSALS).includes(error)) return error;
  return SSO_RETRY_MESSAGE;
}
