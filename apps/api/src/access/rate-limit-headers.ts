import type { ServerResponse } from "node:http";
import type { LimitCount, RequestLimiter } from "./rate-limit.js";

/** The policies as the header fields name them. */
export type RateLimitPolicyName = "per-key" | "auth-failures" | "sign-in-starts" | "session-tokens";

/**
 * The `RateLimit-Policy` and `RateLimit` header fields of the IETF httpapi
 * RateLimit header fields draft (draft-ietf-httpapi-ratelimit-headers-09):
 * `"per-key";q=1200;w=60` (the quota per window of seconds) and
 * `"per-key";r=1187;t=42` (what is left, and the seconds until it is whole again).
 * The policy's text is built once; a count costs one template string.
 */
export class RateLimitFields {
  readonly policy: string;
  private readonly prefix: string;

  constructor(name: RateLimitPolicyName, limiter: Pick<RequestLimiter, "quota" | "windowSeconds">) {
    this.policy = `"${name}";q=${limiter.quota};w=${limiter.windowSeconds}`;
    this.prefix = `"${name}";r=`;
  }

  /** The `RateLimit` value after `count`. */
  current(count: LimitCount): string {
    return `${this.prefix}${count.remaining};t=${count.resetSeconds}`;
  }

  /** Sets both fields on the response. */
  set(res: ServerResponse, count: LimitCount): void {
    res.setHeader("RateLimit-Policy", this.policy);
    res.setHeader("RateLimit", this.current(count));
  }

  /** Both fields as headers of an error (see HttpError). */
  headers(count: LimitCount): Record<string, string> {
    return { "RateLimit-Policy": this.policy, RateLimit: this.current(count) };
  }
}
