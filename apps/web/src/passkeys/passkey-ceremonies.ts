/**
 * The browser's half of the WebAuthn ceremonies (`@simplewebauthn/browser`): what the sign-in page, the
 * invitation page and the Account page call. Each resolves once the API has accepted the
 * authenticator's answer; the caller then asks the session who is signed in (session.tsx `resume`).
 * Each rejects with an Error whose message can be shown to the person as it is.
 *
 * Until the ceremonies are written, every call says passkeys are not available.
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

export const PASSKEYS_UNAVAILABLE_MESSAGE = "Passkeys are not available";

/** Signs in with a discoverable passkey (no email typed); the API sets the session cookie. */
export async function signInWithPasskey(): Promise<void> {
  throw new Error(PASSKEYS_UNAVAILABLE_MESSAGE);
}

/** Creates a passkey: from an invitation (signs in), or for the signed-in person. */
export async function createPasskey(_options: CreatePasskeyOptions): Promise<void> {
  throw new Error(PASSKEYS_UNAVAILABLE_MESSAGE);
}
