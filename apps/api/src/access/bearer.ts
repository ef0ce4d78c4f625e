import { createHash, timingSafeEqual } from "node:crypto";

const BEARER = /^bearer +([^\s]+) *$/i;

/**
 * The credential of an `Authorization: Bearer <token>` header (the scheme name
 * in any case, RFC 7235), or undefined when the header is missing or has another form.
 */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/**
 * SHA-256 of a secret. Secrets are compared and stored only as digests: equal
 * lengths make timingSafeEqual usable whatever was presented, and a digest
 * names a key in counters and records without revealing it.
 */
export function secretDigest(secret: string): Buffer {
  return createHash("sha256").update(secret, "utf8").digest();
}

/**
 * Returns the index of the secret in `secrets` whose digest `presented` (a
 * `secretDigest`) matches, or -1. Every secret is compared, in constant time,
 * so timing reveals neither a secret's content nor its length nor its position.
 * It takes the digest, not the secret, so that a caller that goes on to look
 * the secret up elsewhere (issued keys) hashes it once.
 */
export function secretMatcher(secrets: readonly string[]): (presented: Buffer) => number {
  const digests = secrets.map(secretDigest);
  return (candidate) => {
    let match = -1;
    digests.forEach((expected, index) => {
      if (timingSafeEqual(expected, candidate) && match === -1) match = index;
    });
    return match;
  };
}
