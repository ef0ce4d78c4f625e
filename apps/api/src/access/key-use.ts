import type { AccessRepository, KeyUseField } from "./access-repository.js";

/** After a key's first recorded use, further uses are written at most this often, per key and process. */
export const KEY_USE_WRITE_INTERVAL_MS = 60_000;

export interface KeyUseOptions {
  repository: Pick<AccessRepository, "recordKeyUse">;
  now?: () => number;
  onFailed?: (error: unknown) => void;
  /** Runs the write so that closing the database waits for it (`Database.inBackground`). */
  runInBackground?: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * Records that an issued key was used (`lastUsedAt`, or `lastDeprecatedUseAt`
 * for a deprecated operation): the first use this process sees is written at
 * once, later ones at most once a minute, never a write per request. The
 * write is not waited for; one that fails is retried at the next use.
 */
export function keyUseRecorder({
  repository,
  now = Date.now,
  onFailed = () => {},
  runInBackground = (work) => work(),
}: KeyUseOptions) {
  const written: Record<KeyUseField, Map<number, number>> = { lastUsedAt: new Map(), lastDeprecatedUseAt: new Map() };
  return (keyId: number, field: KeyUseField): void => {
    const at = now();
    const last = written[field].get(keyId);
    if (last !== undefined && at - last < KEY_USE_WRITE_INTERVAL_MS) return;
    written[field].set(keyId, at);
    runInBackground(() => repository.recordKeyUse(keyId, field, new Date(at))).catch((error: unknown) => {
      if (written[field].get(keyId) === at) written[field].delete(keyId);
      onFailed(error);
    });
  };
}
export type RecordKeyUse = ReturnType<typeof keyUseRecorder>;
