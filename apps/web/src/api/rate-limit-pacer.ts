import { parseRateLimit, parseRateLimitPolicy, type RateLimitPolicy } from "./rate-limit-headers.js";
import type { Sleep } from "./sleep.js";

/** Two answers whose windows end within this of each other are about the same window. */
const SAME_WINDOW_MS = 1_500;

/**
 * Paces a run of requests (the bulk import) by the API's `RateLimit` header,
 * so the run waits for the budget to come back instead of meeting a 429:
 *
 * - Until the first answer, one request at a time: nothing is known yet.
 * - An answer without `RateLimit` (the limit is off): no pacing at all.
 * - Otherwise each request started spends one of what is left; once nothing
 *   is left, every request of the run waits until the window resets, and the
 *   new window holds the quota of `RateLimit-Policy`.
 *
 * Other clients of the same key may still spend the budget; the retry policy
 * of creates (`Retry-After`) covers that.
 */
export class RateLimitPacer {
  private state: "unknown" | "unlimited" | "known" = "unknown";
  private remaining = 0;
  private resetAt = 0;
  private firstAnswer: Promise<void> | undefined;
  private answered: () => void = () => {};
  private paused: Promise<void> | undefined;
  private policy: RateLimitPolicy | undefined;
  /** Counts the windows this run has waited out: an answer to a request sent in an earlier one is stale. */
  private window = 0;

  constructor(
    private readonly sleep: Sleep,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Resolves when the next request may start; call it before each one and
   * hand what it resolves with to `observe` with the request's answer.
   */
  async beforeRequest(): Promise<number> {
    if (this.state === "unknown") {
      if (this.firstAnswer) {
        await this.firstAnswer;
        return this.beforeRequest();
      }
      this.firstAnswer = new Promise((resolve) => (this.answered = resolve));
      return this.window;
    }
    if (this.paused) {
      await this.paused;
      return this.beforeRequest();
    }
    if (this.state === "unlimited") return this.window;
    const untilReset = this.resetAt - this.now();
    if (untilReset <= 0) this.newWindow();
    if (this.remaining > 0) {
      this.remaining--;
      return this.window;
    }
    this.paused = this.sleep(Math.max(untilReset, 0)).then(() => {
      this.paused = undefined;
      this.newWindow();
    });
    await this.paused;
    return this.beforeRequest();
  }

  /** The window has reset: the whole quota is there again (unknown without a policy: then no pacing until told). */
  private newWindow(): void {
    this.window++;
    if (!this.policy) {
      this.state = "unlimited";
      return;
    }
    this.remaining = this.policy.quota;
    this.resetAt = this.now() + this.policy.windowSeconds * 1000;
  }

  /**
   * Tells the pacer how a request ended: its response's headers, or none when
   * it failed without one; `sentIn` is what `beforeRequest` resolved with.
   */
  observe(headers: Headers | undefined, sentIn: number): void {
    const left = parseRateLimit(headers?.get("ratelimit"));
    this.policy = parseRateLimitPolicy(headers?.get("ratelimit-policy")) ?? this.policy;
    if (left && sentIn < this.window) {
      // Counted in a window already waited out: says nothing about this one.
    } else if (left) {
      const resetAt = this.now() + left.resetSeconds * 1000;
      const sameWindow = this.state === "known" && Math.abs(resetAt - this.resetAt) < SAME_WINDOW_MS;
      // Answers to requests in flight together arrive in any order: within a window, the least left is the truth.
      this.remaining = sameWindow ? Math.min(this.remaining, left.remaining) : left.remaining;
      this.resetAt = sameWindow ? Math.max(this.resetAt, resetAt) : resetAt;
      this.state = "known";
    } else if (headers && this.state === "unknown") {
      this.state = "unlimited";
    }
    if (this.firstAnswer && (headers || this.state === "unknown")) {
      // A failure without a response tells nothing: let the next request find out, one at a time again.
      if (!headers) this.firstAnswer = undefined;
      this.answered();
    }
  }
}
