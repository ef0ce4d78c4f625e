import { describe, expect, it } from "vitest";
import { parseRateLimit, parseRateLimitPolicy } from "./rate-limit-headers.js";

describe("parseRateLimit", () => {
  it("reads r and t of the draft's field; with several policies, the one with least left", () => {
    expect(parseRateLimit('"per-key";r=1187;t=42')).toEqual({ remaining: 1187, resetSeconds: 42 });
    expect(parseRateLimit('"burst";r=5;t=1, "per-key";r=2;t=40')).toEqual({ remaining: 2, resetSeconds: 40 });
    for (const bad of [null, undefined, "", "garbage", '"per-key";q=10;w=60']) expect(parseRateLimit(bad)).toBeUndefined();
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
