import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * The sign-in's own cookie: what the callback must match (`state`), what the ID token must carry
 * (`nonce`) and the PKCE verifier, for the 10 minutes between leaving for the identity provider and
 * coming back. `SameSite=Lax`, since the callback is a top-level navigation from the provider's site
 * (a `Strict` cookie would not come with it).
 *
 * Sealed, not stored: AES-256-GCM under a key every replica derives from the client secret, so the
 * callback may land on any replica, nothing is written per sign-in attempt, and a cookie that was
 * changed, made up, or sealed under another client's secret does not open. The cookie's name is the
 * additional data, so a value sealed for another purpose under the same key cannot be replayed here.
 */
export const FLOW_COOKIE_NAME = "__Host-petstore-sso";
export const FLOW_MAX_AGE_SECONDS = 600;

export interface SignInFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Unix seconds; the cookie's Max-Age is also the browser's bound, this one is the server's. */
  expiresAt: number;
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The sealing key: HKDF-SHA256 of a secret every replica shares (the client secret, unless one is given). */
export function flowKey(secret: string): Buffer {
  return Buffer.from(
    hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.alloc(0), "petstore sso flow cookie v1", 32),
  );
}

export function sealFlow(flow: SignInFlow, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(FLOW_COOKIE_NAME));
  const plain = JSON.stringify({ v: VERSION, s: flow.state, n: flow.nonce, c: flow.codeVerifier, e: flow.expiresAt });
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString("base64url");
}

/** The flow in a cookie value, or why not: `invalid` (changed, forged, garbled) or `expired`. */
export function openFlow(value: string, key: Buffer, nowSeconds: number): SignInFlow | "invalid" | "expired" {
  if (!/^[A-Za-z0-9_-]+$/.test(value) || value.length > 1_000) return "invalid";
  const bytes = Buffer.from(value, "base64url");
  if (bytes.length <= IV_BYTES + TAG_BYTES) return "invalid";
  let plain: string;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(FLOW_COOKIE_NAME));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    plain = Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    return "invalid";
  }
  let parsed: { v?: unknown; s?: unknown; n?: unknown; c?: unknown; e?: unknown } | null;
  try {
    parsed = JSON.parse(plain) as typeof parsed;
  } catch {
    return "invalid";
  }
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    parsed.v !== VERSION ||
    typeof parsed.s !== "string" ||
    typeof parsed.n !== "string" ||
    typeof parsed.c !== "string" ||
    typeof parsed.e !== "number"
  ) {
    return "invalid";
  }
  if (parsed.e <= nowSeconds) return "expired";
  return { state: parsed.s, nonce: parsed.n, codeVerifier: parsed.c, expiresAt: parsed.e };
}

/** `Set-Cookie` for the flow: HttpOnly, Secure, SameSite=Lax, Path=/, no Domain (a `__Host-` cookie). */
export function flowCookieHeader(value: string): string {
  return `${FLOW_COOKIE_NAME}=${value}; Max-Age=${FLOW_MAX_AGE_SECONDS}; Path=/; HttpOnly; Secure; SameSite=Lax`;
}

/** `Set-Cookie` that removes the flow cookie: the callback sends it whatever the outcome, so a flow is used once. */
export const CLEARED_FLOW_COOKIE = `${FLOW_COOKIE_NAME}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`;
