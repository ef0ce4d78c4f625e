/**
 * Counts events per key in fixed one-minute windows. The whole table is dropped
 * when a window ends, so memory is bounded by the keys seen in one minute.
 * A limit of 0 turns counting off. Per-process: replicas each count their own.
 */
export class FixedWindowLimiter {
  private counts = new Map<string, number>();
  private windowEndsAt = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.limit > 0;
  }

  /** Records one event for `key`; returns the seconds to wait when it is over the limit, else 0. */
  hit(key: string): number {
    if (!this.enabled) return 0;
    const now = this.now();
    if (now >= this.windowEndsAt) {
      this.counts.clear();
      this.windowEndsAt = now + this.windowMs;
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count > this.limit ? this.retryAfterSeconds(now) : 0;
  }

  /** Seconds to wait if `key` is already over the limit, without counting an event. */
  check(key: string): number {
    if (!this.enabled) return 0;
    const now = this.now();
    if (now >= this.windowEndsAt) return 0;
    return (this.counts.get(key) ?? 0) >= this.limit ? this.retryAfterSeconds(now) : 0;
  }

  private retryAfterSeconds(now: number): number {
    return Math.max(1, Math.ceil((this.windowEndsAt - now) / 1000));
  }
}
