import { createHmac, randomBytes } from "node:crypto";

/** A new signing secret: `whsec_` and the base64 of 24 random bytes (the Standard Webhooks form). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString("base64")}`;

/** What lists show of a secret: its first 10 characters (`whsec_` and 4 more). */
export const secretPrefix = (secret: string): string => secret.slice(0, 10);

/** The secret's key bytes: the base64 after `whsec_`. */
const keyOf = (secret: string): Buffer => Buffer.from(secret.slice("whsec_".length), "base64");

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` per secret,
 * space-separated (the new and the old one while a rotation overlaps). Standard Webhooks' scheme.
 */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets
    .map(
      (secret) =>
        `v1,${createHmac("sha256", keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`,
    )
    .join(" ");
}
