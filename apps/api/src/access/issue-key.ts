import { ISSUED_KEY_PREFIX, KEY_PREFIX_LENGTH, type ApiKey, type Scope } from "@petstore/contract";
import { randomBytes } from "node:crypto";
import { secretDigest } from "./bearer.js";
import type { AuditContext } from "../activity/audit-event.js";
import type { AccessRepository, ActiveKey } from "./access-repository.js";

/** `psk_` and 43 base64url characters: 32 random bytes (256 bits), beyond guessing. */
export function newSecret(): string {
  return ISSUED_KEY_PREFIX + randomBytes(32).toString("base64url");
}

export interface IssueKeyRequest {
  name: string;
  scope: Scope;
  expiresAt: Date | null;
  createdBy: string | null;
  /** The person whose session token asks for it; null for a key, a key's session or the operator command. */
  createdByStaffId: number | null;
}

export interface IssuedKey {
  key: ApiKey;
  /** Shown once, to whoever asked; only its digest is stored. */
  secret: string;
  /** What the key check holds for it. */
  active: ActiveKey;
}

/** Makes a secret and stores the key (its digest and prefix, never the secret) with its `key.created` event. */
export async function issueKey(
  repository: AccessRepository,
  request: IssueKeyRequest,
  audit: AuditContext,
): Promise<IssuedKey> {
  const secret = newSecret();
  const digest = secretDigest(secret).toString("hex");
  const key = await repository.createKey(
    { ...request, prefix: secret.slice(0, KEY_PREFIX_LENGTH), secretDigest: digest },
    audit,
  );
  return {
    key,
    secret,
    active: { id: key.id, name: key.name, scope: key.scope, secretDigest: digest, expiresAt: request.expiresAt },
  };
}
