import type { ApiKey, ListKeysQuery, Scope } from "@petstore/contract";
import type { AuditContext } from "../activity/audit-event.js";

/**
 * An issued key, or a session token (`pst_`), as the key check needs it: never listed, never answered.
 * Tokens ride in the same set as keys, so they share its freshness and its 2 s revocation bound.
 */
export interface ActiveKey {
  /** The key's id; for a token, the token's row id (`token` tells them apart). */
  id: number;
  /** The key's name; for a token, its person's or key's name. */
  name: string;
  scope: Scope;
  /** SHA-256 hex digest of the secret. */
  secretDigest: string;
  expiresAt: Date | null;
  /** Set for a session token: whose session it was bought with. */
  token?: TokenHolder | undefined;
}

/** Whose session a session token belongs to: a person's (staffId) or a key's (keyId). */
export interface TokenHolder {
  sessionId: number;
  staffId: number | null;
  /** An issued key's id in decimal, or `configured-N`; null for a person. */
  keyId: string | null;
}

export interface NewKeyRecord {
  name: string;
  scope: Scope;
  prefix: string;
  secretDigest: string;
  expiresAt: Date | null;
  /** The creating key's name; null for the operator command. */
  createdBy: string | null;
  /** The person whose session token made it; null for a key, a key's session or the operator command. */
  createdByStaffId: number | null;
}

export type KeyUseField = "lastUsedAt" | "lastDeprecatedUseAt";

/** Issued keys. Implemented per database; their changes write the activity log in the same transaction. */
export interface AccessRepository {
  /**
   * A value that changes whenever something usable stops being so, or a key is created: a key created or
   * revoked, a session ended, a person disabled. Cheap to read, so every API process can poll it. A session
   * token bought does not move it (a replica finds one it does not hold by `findActiveKey`), so buying
   * tokens never makes every replica reload the whole set.
   */
  keysVersion(): Promise<string>;
  /**
   * Every key not revoked (expired ones too: expiry is checked per request), and every session token
   * not expired whose session has not ended (and whose person is not disabled).
   */
  activeKeys(): Promise<ActiveKey[]>;
  /** The usable key or session token with this secret digest, read now: for one the set does not hold yet. */
  findActiveKey(secretDigest: string): Promise<ActiveKey | undefined>;
  /**
   * Keys newest first: `take` of them with an id below `before` (none: from the newest), only those a
   * person created when `createdByStaffId` is set.
   */
  listKeys(page: KeyPage): Promise<ApiKey[]>;
  /** One key by its id, revoked and expired ones included; null when there is none. */
  getKey(id: number): Promise<ApiKey | null>;
  /** Stores the key and its `key.created` event in one transaction. */
  createKey(key: NewKeyRecord, audit: AuditContext): Promise<ApiKey>;
  /**
   * Revokes the key and records `key.revoked`, in one transaction, and ends the browser sessions
   * started with it; a key already revoked is answered as it is, with no second event. Null: no such key.
   */
  revokeKey(id: number, audit: AuditContext): Promise<ApiKey | null>;
  /**
   * The salt of configured keys' fingerprints (64 hex digits), made by the first process to ask and the
   * same for every replica after (configured-keys.ts).
   */
  keyFingerprintSalt(): Promise<string>;
  /**
   * Ends every browser session started with a configured key whose id (`configured-<fingerprint>`) is not
   * in `keep`: the keys a process starts without. Answers how many ended.
   */
  endConfiguredKeySessionsExcept(keep: readonly string[], at: Date): Promise<number>;
  /** Records a use of the key (lastUsedAt or lastDeprecatedUseAt). */
  recordKeyUse(id: number, field: KeyUseField, at: Date): Promise<void>;
}

/** Which keys listKeys reads. */
export interface KeyPage {
  take: number;
  before?: number | undefined;
  createdByStaffId?: ListKeysQuery["createdByStaffId"];
}

/** An ApiKey row as both databases return it. */
export interface ApiKeyRow {
  id: number | bigint;
  name: string;
  scope: string;
  prefix: string;
  createdAt: Date | string;
  createdBy: string | null;
  createdByStaffId: number | bigint | null;
  lastUsedAt: Date | string | null;
  lastDeprecatedUseAt: Date | string | null;
  expiresAt: Date | string | null;
  revokedAt: Date | string | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: Number(row.id),
    name: row.name,
    scope: row.scope as Scope,
    prefix: row.prefix,
    createdAt: new Date(row.createdAt).toISOString(),
    createdBy: row.createdBy,
    createdByStaffId: row.createdByStaffId === null ? null : Number(row.createdByStaffId),
    lastUsedAt: iso(row.lastUsedAt),
    lastDeprecatedUseAt: iso(row.lastDeprecatedUseAt),
    expiresAt: iso(row.expiresAt),
    revokedAt: iso(row.revokedAt),
  };
}
