import type { ApiKey } from "@petstore/contract";

export type KeyStatus = "active" | "expired" | "revoked";

/** What a key is now: revoked outranks expired, since revoking is what staff did on purpose. */
export function keyStatus(key: Pick<ApiKey, "revokedAt" | "expiresAt">, now: number = Date.now()): KeyStatus {
  if (key.revokedAt !== null) return "revoked";
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now) return "expired";
  return "active";
}
