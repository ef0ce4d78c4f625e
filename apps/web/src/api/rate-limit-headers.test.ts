import { describe, expect, it } from "vitest";
import { parseRateLimit, parseRateLimitPolicy, parseRetryAfter } from "./rate-limit-headers.js";

describe("parseRateLimit", () => {
  it("reads r and t of the draft's field; with several policies, the one with least left", () => {
    expect(parseRateLimit('"per-key";r=1187;t=42')).toEqual({ remaining: 1187, resetSeconds: 42 });
    expect(parseRateLimit('"burst";r=5;t=1, "per-key";r=2;t=40')).toEqual({ remaining: 2, resetSeconds: 40 });
    for (const bad of [null, undefined, "", "garbage", '"per-key";q=10;w=60'])
      expect(parseRateLimit(bad)).toBeUndefined();
  });
});

describe("parseRateLimitPolicy", () => {
  it("reads q and w of the draft's field; with several policies, the one with the smallest quota", () => {
    expect(parseRateLimitPolicy('"per-key";q=1200;w=60')).toEqual({ quota: 1200, windowSeconds: 60 });
    expect(parseRateLimitPolicy('"per-key";q=1200;w=60, "burst"; q=20; w=1')).toEqual({ quota: 20, windowSeconds: 1 });
    for (const bad of [null, undefined, "", "garbage", '"per-key";r=10;t=60', '"per-key";q=10']) {
      expect(parseRateLimitPolicy(bad)).toBeUndefined();
    }
  });
});

describe("parseRetryAfter", () => {
  it("reads delay-seconds, or an HTTP date as the seconds until it (a fraction, or below 0 once passed)", () => {
    expect(parseRetryAfter("30")).toBe(30);
    expect(parseRetryAfter(" 0 ")).toBe(0);
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(parseRetryAfter("Tue, 01 Jan 2030 00:01:30 GMT", now)).toBe(90);
    expect(parseRetryAfter("Tue, 01 Jan 2030 00:01:30 GMT", now + 90_500)).toBe(-0.5);
    for (const bad of [null, undefined, "", "  ", "soon"]) expect(parseRetryAfter(bad)).toBeUndefined();
  });
});
