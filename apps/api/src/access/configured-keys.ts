import { createHmac } from "node:crypto";
import type { Caller } from "./caller.js";

/** Where the deployment's fingerprint salt is read (and made, by the first process to ask). */
export interface FingerprintSaltSource {
  keyFingerprintSalt(): Promise<string>;
}

/** The hex digits of a fingerprint a configured key's id carries: 48 bits, enough to tell a store's few keys apart. */
const FINGERPRINT_HEX_DIGITS = 12;
export const CONFIGURED_KEY_ID_PREFIX = "configured-";

/**
 * A configured key's id: `configured-` and the first 12 hex digits of HMAC-SHA256 of the key under the
 * deployment's salt. It names the key by what it is, so rotating API_KEYS (`old,new`, then `new`) keeps
 * the new key's id, sessions and records, and ends the old key's; the salt (made once per deployment,
 * kept in the database) means a copy of the database or of Redis holds nothing precomputed to test a
 * guessed key against.
 */
export function configuredKeyId(salt: string, key: string): string {
  const fingerprint = createHmac("sha256", Buffer.from(salt, "hex")).update(key, "utf8").digest("hex");
  return CONFIGURED_KEY_ID_PREFIX + fingerprint.slice(0, FINGERPRINT_HEX_DIGITS);
}

export const isConfiguredKeyId = (keyId: string): boolean => keyId.startsWith(CONFIGURED_KEY_ID_PREFIX);

/** The callers of API_KEYS, in its order: `Configured key N` (its position now), named by its fingerprint. */
function configuredCallers(apiKeys: readonly string[], salt: string): Caller[] {
  return apiKeys.map((key, index) => {
    const keyId = configuredKeyId(salt, key);
    const name = `Configured key ${index + 1}`;
    return {
      storeKey: keyId,
      keyId,
      staffId: null,
      name,
      scope: "admin",
      expiresAt: null,
      issuedKeyId: undefined,
      sessionId: undefined,
      actor: { keyId, staffId: null, name },
    };
  });
}

/**
 * The keys of API_KEYS as callers. Their ids need the salt, read from the database once: until then
 * `callers()` is undefined and `ready()` reads it (a failed read is tried again at the next call, so a
 * database that was down at start does not leave the keys unusable).
 */
export class ConfiguredKeys {
  /** The keys themselves (secrets: compared as digests by the key check, never logged). */
  readonly apiKeys: readonly string[];
  private readonly source: FingerprintSaltSource;
  private loaded: Caller[] | undefined;
  private byId = new Map<string, { caller: Caller; position: number }>();
  private loading: Promise<Caller[]> | undefined;

  constructor(apiKeys: readonly string[], source: FingerprintSaltSource) {
    this.apiKeys = apiKeys;
    this.source = source;
  }

  /** The callers, in API_KEYS' order, once the salt is read; undefined before. */
  callers(): readonly Caller[] | undefined {
    return this.loaded;
  }

  ready(): Promise<readonly Caller[]> {
    if (this.loaded) return Promise.resolve(this.loaded);
    this.loading ??= this.source.keyFingerprintSalt().then(
      (salt) => {
        const callers = configuredCallers(this.apiKeys, salt);
        this.byId = new Map(callers.map((caller, index) => [caller.keyId!, { caller, position: index + 1 }]));
        this.loaded = callers;
        return callers;
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  /** The configured key with this id among this process's API_KEYS (after `ready()`); undefined: not one of ours. */
  byKeyId(keyId: string): Caller | undefined {
    return this.byId.get(keyId)?.caller;
  }

  /** Its position in API_KEYS (1-based), an activity event's target id; undefined: not one of ours. */
  positionOf(keyId: string): number | undefined {
    return this.byId.get(keyId)?.position;
  }

  /** The ids of this process's configured keys (after `ready()`). */
  keyIds(): string[] {
    return [...this.byId.keys()];
  }
}

/**
 * At start: ends, in the database, every browser session of a configured key this process does not hold,
 * so that replacing `old,new` by `new` ends the old key's sessions (the other replicas drop their tokens
 * within 2 s, when the key set's version moves) and keeps the new key's. Answers how many ended.
 */
export async function endRotatedKeySessions(
  configuredKeys: ConfiguredKeys,
  repository: { endConfiguredKeySessionsExcept(keep: readonly string[], at: Date): Promise<number> },
  now: () => number,
): Promise<number> {
  await configuredKeys.ready();
  return repository.endConfiguredKeySessionsExcept(configuredKeys.keyIds(), new Date(now()));
}
