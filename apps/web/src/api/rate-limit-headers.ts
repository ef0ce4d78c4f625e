/**
 * The API's rate-limit header fields, read in one place: `RateLimit` and
 * `RateLimit-Policy` (IETF httpapi RateLimit header fields draft) and
 * `Retry-After` (RFC 9110).
 */

/** What is left of a rate-limit budget, from a `RateLimit` header field. */
export interface RateLimitLeft {
  remaining: number;
  resetSeconds: number;
}

/** A policy from `RateLimit-Policy`, e.g. `"per-key";q=1200;w=60`: the quota per window of seconds. */
export interface RateLimitPolicy {
  quota: number;
  windowSeconds: number;
}

/** A whole-number parameter of one listed policy, e.g. `r` of `"per-key";r=1187;t=42`. */
function parameter(item: string, name: string): number | undefined {
  const digits = new RegExp(`;\\s*${name}=(\\d+)`).exec(item)?.[1];
  return digits === undefined ? undefined : Number(digits);
}

/**
 * Of the policies a field lists (comma-separated), those that carry both
 * parameters `least` and `other`: the one with the smallest `least`, as
 * `[least, other]`. Undefined when absent or unreadable.
 */
function tightestPolicy(value: string | null | undefined, least: string, other: string): [number, number] | undefined {
  if (!value) return undefined;
  let tightest: [number, number] | undefined;
  for (const item of value.split(",")) {
    const first = parameter(item, least);
    const second = parameter(item, other);
    if (first === undefined || second === undefined) continue;
    if (!tightest || first < tightest[0]) tightest = [first, second];
  }
  return tightest;
}

/**
 * Reads `RateLimit`, e.g. `"per-key";r=1187;t=42`. With several policies
 * listed, the one with the least left decides. Undefined when absent or unreadable.
 */
export function parseRateLimit(value: string | null | undefined): RateLimitLeft | undefined {
  const tightest = tightestPolicy(value, "r", "t");
  return tightest && { remaining: tightest[0], resetSeconds: tightest[1] };
}

/** Reads `RateLimit-Policy`; with several policies listed, the one with the smallest quota. */
export function parseRateLimitPolicy(value: string | null | undefined): RateLimitPolicy | undefined {
  const tightest = tightestPolicy(value, "q", "w");
  return tightest && { quota: tightest[0], windowSeconds: tightest[1] };
}

/**
 * Reads `Retry-After` (delay-seconds, or an HTTP date) as seconds from `now`,
 * as the field says them: a date gives a fraction, or less than 0 once it has
 * passed; callers round and bound it. Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : (date - now) / 1000;
}
