import type { AccessRepository, ActiveKey } from "./access-repository.js";

/**
 * How old the cached key set may be when a request arrives, at most: older, the
 * request waits for a read that started no earlier than this before it arrived.
 * A key revoked on another API process is refused within this (plus the reads),
 * under the 2 s the interface promises. See docs/decisions/013 and 022.
 */
export const MAX_KEY_SET_AGE_MS = 1_000;
/** Past this age the next request refreshes the set in the background and goes on with the one it has. */
export const REFRESH_KEY_SET_AFTER_MS = 250;

export interface IssuedKeysOptions {
  repository: Pick<AccessRepository, "keysVersion" | "activeKeys"> & Partial<Pick<AccessRepository, "findActiveKey">>;
  /** The wall clock, for expiry (ms since the epoch). */
  now?: () => number;
  /** A clock that never steps back, for the set's age (ms). A wall clock set back must not freeze the set. */
  monotonicNow?: () => number;
  /** Told of a background refresh that failed (the next request retries). */
  onRefreshFailed?: (error: unknown) => void;
  /** Runs each read so that closing the database waits for it (`Database.inBackground`). */
  runInBackground?: <T>(work: () => Promise<T>) => Promise<T>;
}

/** Which keys or tokens a revocation takes out of the set. */
type Revocation = (key: ActiveKey) => boolean;

/** This process's creates and revokes made while a read is in flight: laid over what that read returns. */
interface ChangesDuringRead {
  added: ActiveKey[];
  revoked: Revocation[];
}

/**
 * The issued keys every request is checked against, held in this process: a
 * request never reads the database for its key. The set is kept fresh by
 * reading a version stamp (one cheap aggregate) when it is older than
 * REFRESH_KEY_SET_AFTER_MS, in the background, and the keys themselves only
 * when the stamp moved; a request that finds it older than MAX_KEY_SET_AGE_MS
 * (a process that was idle, or a read in flight that is too old) waits for a
 * read that started no earlier than that before the request arrived. A create
 * or revoke made by this process changes the set here at once, and is laid
 * over the read in flight, so no read is ever thrown away (docs/decisions/022).
 */
export class IssuedKeys {
  private byDigest = new Map<string, ActiveKey>();
  private version: string | undefined;
  /** When the read that produced the current set started: the set holds every revocation committed before then. */
  private readAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | undefined;
  /** When the read in flight started. */
  private inFlightSince = Number.NEGATIVE_INFINITY;
  private changesDuringRead: ChangesDuringRead | undefined;
  /** The revocations made here in the last minute, for look-ups in flight. */
  private readonly revokedHere: Array<{ at: number; revocation: Revocation }> = [];
  private readonly repository: IssuedKeysOptions["repository"];
  private readonly now: () => number;
  private readonly monotonicNow: () => number;
  private readonly onRefreshFailed: (error: unknown) => void;
  private readonly runInBackground: <T>(work: () => Promise<T>) => Promise<T>;

  constructor({
    repository,
    now = Date.now,
    monotonicNow = () => performance.now(),
    onRefreshFailed = () => {},
    runInBackground = (work) => work(),
  }: IssuedKeysOptions) {
    this.repository = repository;
    this.runInBackground = runInBackground;
    this.now = now;
    this.monotonicNow = monotonicNow;
    this.onRefreshFailed = onRefreshFailed;
  }

  /**
   * Undefined when the set is fresh enough to answer now (a background
   * refresh may have been started); else the refresh to wait for first. Either
   * way the request is answered on a set read no earlier than
   * MAX_KEY_SET_AGE_MS before it arrived.
   */
  whenFresh(): Promise<void> | undefined {
    const arrivedAt = this.monotonicNow();
    const age = arrivedAt - this.readAt;
    if (age < REFRESH_KEY_SET_AFTER_MS) return undefined;
    if (age < MAX_KEY_SET_AGE_MS) {
      this.refresh().catch(this.onRefreshFailed);
      return undefined;
    }
    return this.readStartedSince(arrivedAt - MAX_KEY_SET_AGE_MS);
  }

  /** The usable key with this secret digest (hex), or undefined. An expired key is not usable. */
  find(secretDigest: string): ActiveKey | undefined {
    const key = this.byDigest.get(secretDigest);
    if (key?.expiresAt && key.expiresAt.getTime() <= this.now()) return undefined;
    return key;
  }

  /** The usable issued key with this id (not a token), or undefined: revoked, expired or unknown. */
  keyById(id: number): ActiveKey | undefined {
    for (const key of this.byDigest.values()) if (!key.token && key.id === id) return this.find(key.secretDigest);
    return undefined;
  }

  /** A key this process has just created: usable here at once. */
  added(key: ActiveKey): void {
    this.byDigest.set(key.secretDigest, key);
    this.changesDuringRead?.added.push(key);
  }

  /**
   * A key this process has just revoked (or found revoked already): refused here
   * at once, with the session tokens of the browser sessions started with it.
   * Revocation is one-way, so this never disturbs a read: at most it
   * takes the key out of what a read in flight returns.
   */
  revoked(id: number): void {
    const keyId = String(id);
    this.revoke((key) => (key.token ? key.token.keyId === keyId : key.id === id));
  }

  /** Browser sessions this process has just ended: their tokens are refused here at once. */
  endedSessions(which: { sessionId: number } | { staffId: number } | { keyId: string }): void {
    if ("sessionId" in which) this.revoke((key) => key.token?.sessionId === which.sessionId);
    else if ("staffId" in which) this.revoke((key) => key.token?.staffId === which.staffId);
    else this.revoke((key) => key.token?.keyId === which.keyId);
  }

  /**
   * A key or token this process does not hold (yet): read from the database once, and held from then on
   * when usable. A token bought on another API process works here at once, before the next refresh.
   * The caller bounds these reads (the client address's failure budget).
   */
  async lookUp(secretDigest: string): Promise<ActiveKey | undefined> {
    if (!this.repository.findActiveKey) return undefined;
    const since = this.monotonicNow();
    const found = await this.runInBackground(() => this.repository.findActiveKey!(secretDigest));
    if (!found) return undefined;
    // A revocation made here while the read was in flight stands.
    if (this.revokedHere.some(({ at, revocation }) => at >= since && revocation(found))) return undefined;
    this.added(found);
    return this.find(secretDigest);
  }

  private revoke(revocation: Revocation): void {
    for (const [digest, key] of this.byDigest) if (revocation(key)) this.byDigest.delete(digest);
    this.changesDuringRead?.revoked.push(revocation);
    // Kept a while so that a look-up in flight cannot bring back what was just revoked.
    const at = this.monotonicNow();
    this.revokedHere.push({ at, revocation });
    while (this.revokedHere.length > 0 && this.revokedHere[0]!.at < at - 60_000) this.revokedHere.shift();
  }

  /** Reads the stamp, and the keys when it moved; one read at a time, shared by everyone waiting. */
  refresh(): Promise<void> {
    if (!this.inFlight) {
      this.inFlightSince = this.monotonicNow();
      this.inFlight = this.runInBackground(() => this.read(this.inFlightSince)).finally(
        () => (this.inFlight = undefined),
      );
    }
    return this.inFlight;
  }

  /** Resolves once the set comes from a read started at `since` or later: the one in flight, or the next. */
  private async readStartedSince(since: number): Promise<void> {
    // A read in flight that began earlier may predate a revocation this request must see: let it end, read again.
    // The next read starts after this request arrived, so two reads at most, whatever the clock says.
    if (this.inFlight && this.inFlightSince < since) await this.inFlight.catch(() => undefined);
    await this.refresh();
  }

  private async read(startedAt: number): Promise<void> {
    const changes: ChangesDuringRead = { added: [], revoked: [] };
    this.changesDuringRead = changes;
    try {
      const version = await this.repository.keysVersion();
      const keys = version === this.version ? undefined : await this.repository.activeKeys();
      if (keys) {
        // The read may predate a create or revoke made here meanwhile: those stand (revocation is one-way).
        const byDigest = new Map<string, ActiveKey>();
        for (const key of [...keys, ...changes.added])
          if (!changes.revoked.some((revoked) => revoked(key))) byDigest.set(key.secretDigest, key);
        this.byDigest = byDigest;
      }
      // Unchanged stamp: the set held is the database's as of the stamp, plus what changed here since (applied already).
      this.version = version;
      this.readAt = startedAt;
    } finally {
      this.changesDuringRead = undefined;
    }
  }
}
