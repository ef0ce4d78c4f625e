import type { Response } from "express";

// A symbol key: nothing but these two functions can read or write it.
const KEY_DIGEST = Symbol("apiKeyDigest");
type Locals = Record<symbol, unknown>;

/** Records which API key the request was made with (by its SHA-256, hex), once the key check has passed. */
export function setCallerKeyDigest(res: Response, digest: string): void {
  (res.locals as Locals)[KEY_DIGEST] = digest;
}

/**
 * The SHA-256 (hex) of the API key the request was made with: what is stored
 * per client (idempotency records) is scoped by it, never by the key itself.
 * Throws when the request never passed the key check: a wiring fault.
 */
export function callerKeyDigest(res: Response): string {
  const digest = (res.locals as Locals)[KEY_DIGEST];
  if (typeof digest !== "string") throw new Error("no API key check ran for this request (requireApiKey is not mounted before it)");
  return digest;
}
