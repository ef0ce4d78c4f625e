import type { AccessRepository, ActiveKey } from "./access-repository.js";

/**
 * How old the cached key set may be before a request waits for a fresh one:
 * a key revoked on another API process is refused within this (plus the read
 * itself), under the 2 s the interface promises. See docs/decisions/010.
 */
export const MAX_KEY_SET_AGE_MS = 1_000;
/** Past this age the next request refreshes the set in the background and goes on with the one it has. */
export const REFRESH_KEY_SET_AFTER_MS = 250;

export interface IssuedKeysOptions {
  repository: Pick<AccessRepository, "keysVersion" | "activeKeys">;
  now?: () => number;
  /** Told of a background refresh that failed (the next request retries). */
  onRefreshFailed?: (error: unknown) => void;
  /** Runs each read so that closing the database waits for it (`Database.inBackground`). */
  runInBackground?: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * The issued keys every request is checked against, held in this process: a
 * request never reads the database for its key. The set is kept fresh by
 * reading a version stamp (one cheap aggregate) when it is older than
 * REFRESH_KEY_SET_AFTER_MS, in the background, and the keys themselves only
 * when the stamp moved; a request that finds it older than MAX_KEY_SET_AGE_MS
 * (a process that was idle) waits for that read. A create or revoke made by
 * this process changes the set here at once.
 */
export class IssuedKeys {
  private byDigest = new Map<string, ActiveKey>();
  private version: string | undefined;
  /** When the read that produced the current set started. */
  private readAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | undefined;
  /** Counts this process's own creates and revokes: a read that overlapped one is stale and dropped. */
  private localChanges = 0;
  private readonly repository: IssuedKeysOptions["repository"];
  private readonly now: () => number;
  private readonly onRefreshFailed: (error: unknown) => void;
  private readonly runInBackground: <T>(work: () => Promise<T>) => Promise<T>;

  constructor({ repository, now = Date.now, onRefreshFailed = () => {}, runInBackground = (work) => work() }: IssuedKeysOptions) {
    this.repository = repository;
    this.runInBackground = runInBackground;
    this.now = now;
    this.onRefreshFailed = onRefreshFailed;
  }

  /**
   * Undefined when the set is fresh enough to answer now (a background
   * refresh may have been started); else the refresh to wait for first.
   */
  whenFresh(): Promise<void> | undefined {
    const age = this.now() - this.readAt;
    if (age < REFRESH_KEY_SET_AFTER_MS) return undefined;
    const refresh = this.refresh();
    if (age < MAX_KEY_SET_AGE_MS) {
      refresh.catch(this.onRefreshFailed);
      return undefined;
    }
    return refresh;
  }

  /** The usable key with this secret digest (hex), or undefined. An expired key is not usable. */
  find(secretDigest: string): ActiveKey | undefined {
    const key = this.byDigest.get(secretDigest);
    if (key?.expiresAt && key.expiresAt.getTime() <= this.now()) return undefined;
    return key;
  }

  /** A key this process has just created: usable here at once. */
  added(key: ActiveKey): void {
    this.byDigest.set(key.secretDigest, key);
    this.localChanges++;
  }

  /** A key this process has just revoked: refused here at once. */
  revoked(id: number): void {
    for (const [digest, key] of this.byDigest) if (key.id === id) this.byDigest.delete(digest);
    this.localChanges++;
  }

  /** Reads the stamp, and the keys when it moved; one read at a time, shared by everyone waiting. */
  refresh(): Promise<void> {
    this.inFlight ??= this.runInBackground(() => this.read()).finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async read(): Promise<void> {
    const startedAt = this.now();
    const changes = this.localChanges;
    const version = await this.repository.keysVersion();
    const keys = version === this.version ? undefined : await this.repository.activeKeys();
    if (changes !== this.localChanges) {
      // A create or revoke here overlapped the read, which may predate it: keep the local change, read again next time.
      this.version = undefined;
      return;
    }
    if (keys) this.byDigest = new Map(keys.map((key) => [key.secretDigest, key]));
    this.version = version;
    this.readAt = startedAt;
  }
}
