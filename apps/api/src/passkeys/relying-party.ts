/** Who the passkeys are for: the admin app's origin (ADMIN_ORIGIN) and its host. */
export interface RelyingParty {
  /** The RP ID: the host of ADMIN_ORIGIN (no port, no scheme). WebAuthn refuses an IP address here. */
  id: string;
  /** What an authenticator shows beside the person's name. */
  name: string;
  /** The origin a ceremony's clientDataJSON must name: ADMIN_ORIGIN itself. */
  origin: string;
}

export const RELYING_PARTY_NAME = "Petstore admin";

/** The relying party of an ADMIN_ORIGIN; undefined when it is unset (passkeys are off). */
export function relyingPartyOf(adminOrigin: string | undefined): RelyingParty | undefined {
  if (!adminOrigin) return undefined;
  const url = new URL(adminOrigin);
  return { id: url.hostname, name: RELYING_PARTY_NAME, origin: url.origin };
}
