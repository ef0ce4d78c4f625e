import { adminContract, ErrorBody } from "@petstore/contract";
import { initClient, type ApiFetcher } from "@ts-rest/core";
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { API_ORIGIN } from "../api/petstore-client.js";

/**
 * The browser's half of the WebAuthn ceremonies (`@simplewebauthn/browser`): what the sign-in page, the
 * invitation page and the Account page call. Each asks the API for options (a one-time challenge),
 * hands them to the authenticator, and sends its answer back; it resolves once the API has accepted
 * it (a sign-in or an invitation's passkey: the API has set the session cookie, and the caller asks the
 * session who is signed in). Nothing secret passes through here, and nothing is kept.
 *
 * Each rejects with a `PasskeyError` whose message can be shown to the person as it is, and whose
 * `reason` tells a dismissed dialog (`cancelled`) from a browser that cannot (`unsupported`), a refusal
 * by the API (`refused`: an expired invitation, an unknown passkey, a disabled account, too many
 * tries) and a failure of the network or the server (`failed`).
 */

/** A passkey for someone opening their invitation link: it uses the invitation up and signs them in. */
export interface InvitationPasskeyOptions {
  invitationToken: string;
  /** What the person calls the passkey; the API names it when absent. */
  name?: string;
}

/** One more passkey for the signed-in person. */
export interface AccountPasskeyOptions {
  /** `fetch` with the person's session token attached (and renewed), for the person-only operations. */
  authorizedFetch: typeof fetch;
  name?: string;
}

export type CreatePasskeyOptions = InvitationPasskeyOptions | AccountPasskeyOptions;

export type PasskeyFailure = "cancelled" | "unsupported" | "refused" | "failed";

export class PasskeyError extends Error {
  readonly reason: PasskeyFailure;
  /** The API's HTTP status when it refused or failed; undefined when the browser or the network did. */
  readonly httpStatus: number | undefined;
  constructor(reason: PasskeyFailure, message: string, httpStatus?: number) {
    super(message);
    this.name = "PasskeyError";
    this.reason = reason;
    this.httpStatus = httpStatus;
  }
}

export const PASSKEYS_UNAVAILABLE_MESSAGE = "Passkeys are not available";

export const PASSKEY_MESSAGES = {
  unsupported: `${PASSKEYS_UNAVAILABLE_MESSAGE} in this browser. Use a current browser, or sign in another way.`,
  cancelledSignIn: "No passkey was used: the browser's passkey dialog was closed or timed out.",
  cancelledCreate: "No passkey was created: the browser's passkey dialog was closed or timed out.",
  alreadyRegistered:
    "This device already holds a passkey for your account: use that one, or add a passkey on another device.",
  noUserVerification: "This device cannot check that it is you (a PIN, a fingerprint or a face): use another device.",
  failed: "The server could not be reached. Check the connection and try again.",
} as const;

/**
 * The operations that take no credential (a sign-in, an invitation's passkey): sent with this
 * origin's cookies, so the API's Set-Cookie lands, and no bearer.
 */
const signInClient = initClient(adminContract, {
  baseUrl: API_ORIGIN,
  credentials: "same-origin",
  validateResponse: true,
});

/** The person-only operations, over the Account page's `authorizedFetch` (the session token, renewed on a 401). */
function accountClient(authorizedFetch: typeof fetch) {
  const api: ApiFetcher = async ({ path, method, headers, body }) => {
    const response = await authorizedFetch(path, { method, headers, body: body ?? null, credentials: "same-origin" });
    const type = response.headers.get("content-type") ?? "";
    const parsed: unknown = type.includes("json") ? await response.json() : await response.text();
    return { status: response.status, body: parsed, headers: response.headers };
  };
  return initClient(adminContract, { baseUrl: API_ORIGIN, api, validateResponse: true });
}

/** `Sign in with a passkey`: no email typed; the authenticator offers this site's passkeys. The API sets the session cookie. */
export async function signInWithPasskey(): Promise<void> {
  supported();
  await ceremony(PASSKEY_MESSAGES.cancelledSignIn, async () => {
    const options = await signInClient.passkeys.passkeySignInOptions({ body: {} });
    if (options.status !== 200) throw refusal(options);
    const response = await startAuthentication({
      optionsJSON: options.body as unknown as PublicKeyCredentialRequestOptionsJSON,
    });
    const signedIn = await signInClient.passkeys.passkeySignIn({ body: { response: { ...response } } });
    if (signedIn.status !== 200) throw refusal(signedIn);
  });
}

/**
 * `Create a passkey` on the invitation page (the invitation is used up and the person signed in), or
 * `Add a passkey` on the Account page (one more for the signed-in person).
 */
export async function createPasskey(options: CreatePasskeyOptions): Promise<void> {
  supported();
  const name = options.name === undefined ? {} : { name: options.name };
  const register = (optionsJSON: unknown) =>
    startRegistration({ optionsJSON: optionsJSON as PublicKeyCredentialCreationOptionsJSON });
  await ceremony(PASSKEY_MESSAGES.cancelledCreate, async () => {
    if ("invitationToken" in options) {
      const { invitationToken } = options;
      const creation = await signInClient.passkeys.invitationPasskeyOptions({ body: { invitationToken } });
      if (creation.status !== 200) throw refusal(creation);
      const response = await register(creation.body);
      const accepted = await signInClient.passkeys.acceptInvitation({
        body: { invitationToken, response: { ...response }, ...name },
      });
      if (accepted.status !== 201) throw refusal(accepted);
      return;
    }
    const client = accountClient(options.authorizedFetch);
    const creation = await client.passkeys.addPasskeyOptions({ body: {} });
    if (creation.status !== 200) throw refusal(creation);
    const response = await register(creation.body);
    const added = await client.passkeys.addPasskey({ body: { response: { ...response }, ...name } });
    if (added.status !== 201) throw refusal(added);
  });
}

function supported(): void {
  if (!browserSupportsWebAuthn()) throw new PasskeyError("unsupported", PASSKEY_MESSAGES.unsupported);
}

/** The API's answer when it was not the one hoped for: its Error body's message (the API words it for people). */
function refusal(response: { status: number; body: unknown }): PasskeyError {
  const parsed = ErrorBody.safeParse(response.body);
  if (response.status >= 500)
    return new PasskeyError("failed", parsed.success ? parsed.data.message : PASSKEY_MESSAGES.failed, response.status);
  const message = parsed.success ? parsed.data.message : `The server refused the passkey (HTTP ${response.status}).`;
  return new PasskeyError("refused", message, response.status);
}

/** Runs a ceremony; the authenticator's and the network's errors become PasskeyErrors. */
async function ceremony(cancelled: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    throw asPasskeyError(error, cancelled);
  }
}

function asPasskeyError(error: unknown, cancelled: string): PasskeyError {
  if (error instanceof PasskeyError) return error;
  const code = error instanceof WebAuthnError ? error.code : undefined;
  const cause = error instanceof WebAuthnError && error.cause instanceof Error ? error.cause : error;
  const name = cause instanceof Error ? cause.name : "";
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED")
    return new PasskeyError("refused", PASSKEY_MESSAGES.alreadyRegistered);
  if (
    code === "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT" ||
    code === "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT"
  ) {
    return new PasskeyError("unsupported", PASSKEY_MESSAGES.noUserVerification);
  }
  // NotAllowedError: the person closed the dialog, or it timed out (browsers do not say which, on purpose).
  if (name === "NotAllowedError" || name === "AbortError" || code === "ERROR_CEREMONY_ABORTED")
    return new PasskeyError("cancelled", cancelled);
  // The authenticator's other refusals say what went wrong (a wrong domain, no supported algorithm).
  if (error instanceof WebAuthnError && error.message) return new PasskeyError("failed", error.message);
  // fetch's TypeError (the network), an answer the contract does not describe: try again.
  return new PasskeyError("failed", PASSKEY_MESSAGES.failed);
}
