import { createHash } from "node:crypto";
import { NAME_MAX_LENGTH, NameText, StaffEmail } from "@petstore/contract";
import type { SsoIdentity } from "../staff/staff-repository.js";
import type { VerifiedSignIn } from "./single-sign-on.js";

/** What no stored name may hold (`NAME_PATTERN`): control and bidirectional formatting characters, unpaired surrogates. */
const REFUSED =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Shown when neither the provider's name nor the email's local part makes a name. */
export const UNNAMED = "Single sign-on user";

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 24);

/** At most NAME_MAX_LENGTH UTF-16 units, never half a surrogate pair. */
function cut(text: string): string {
  if (text.length <= NAME_MAX_LENGTH) return text;
  const head = text.slice(0, NAME_MAX_LENGTH);
  return /[\ud800-\udbff]$/.test(head) ? head.slice(0, -1) : head;
}

/**
 * A name the API can store from the provider's (its characters are the provider's choice): refused
 * characters become spaces, runs of spaces one, cut to 100; else the email's local part; else `UNNAMED`.
 */
export function storableName(name: string, email: string): string {
  for (const candidate of [name, email.split("@")[0] ?? ""]) {
    const cleaned = cut(candidate.replace(REFUSED, " ").replace(/\s+/g, " ").trim()).trim();
    if (cleaned && NameText.safeParse(cleaned).success) return cleaned;
  }
  return UNNAMED;
}

/**
 * The email of a person whose address is someone else's already, or not an address the API accepts:
 * made from the identity (`<subject>@<issuer host>.invalid`, or a digest of both), so it is unique,
 * valid, and visibly not a mailbox (`.invalid` is reserved, RFC 2606).
 */
export function fallbackEmail(issuer: string, subject: string): string {
  let host = "";
  try {
    host = new URL(issuer).hostname;
  } catch {
    // A malformed issuer never gets this far (discovery); the digest form below holds anyway.
  }
  const local = /^[a-z0-9_-]{1,40}$/.test(subject) ? `sso-${subject}` : `sso-${digest(subject)}`;
  const readable = StaffEmail.safeParse(`${local}@${host}.invalid`);
  if (host && readable.success) return readable.data;
  return `sso-${digest(`${issuer}\n${subject}`)}@single-sign-on.invalid`;
}

/** The person's identity as the staff repository takes it, from what the provider verified. */
export function ssoIdentity(signIn: VerifiedSignIn): SsoIdentity {
  const email = StaffEmail.safeParse(signIn.email);
  const fallback = fallbackEmail(signIn.issuer, signIn.subject);
  return {
    issuer: signIn.issuer,
    subject: signIn.subject,
    email: email.success ? email.data : fallback,
    // An address the API does not accept joins nobody, verified or not.
    emailVerified: email.success && signIn.emailVerified,
    fallbackEmail: fallback,
    name: storableName(signIn.name, email.success ? email.data : ""),
    role: signIn.role,
  };
}
