import { describe, expect, it } from "vitest";
import { describeFailure, isTransientFailure, retryAfterSeconds } from "./api-errors.js";

/** A failed response as the typed client hands it over: status, parsed body, Headers. */
function failed(status: number, code: string, headers: Record<string, string> = {}) {
  return { status, body: { code, message: `The API's own words for ${code}.`, status }, headers: new Headers(headers) };
}

describe("retryAfterSeconds", () => {
  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(retryAfterSeconds(failed(429, "RATE_LIMITED", { "Retry-After": "30" }))).toBe(30);
    const now = Date.parse("2030-01-01T00:00:00Z");
    const in90s = failed(503, "UNAVAILABLE", { "Retry-After": "Tue, 01 Jan 2030 00:01:30 GMT" });
    expect(retryAfterSeconds(in90s, now)).toBe(90);
  });

  it("is undefined without a usable header", () => {
    expect(retryAfterSeconds(failed(429, "RATE_LIMITED"))).toBeUndefined();
    expect(retryAfterSeconds(failed(429, "RATE_LIMITED", { "Retry-After": "soon" }))).toBeUndefined();
    expect(retryAfterSeconds(new TypeError("Failed to fetch"))).toBeUndefined();
  });
});

describe("describeFailure", () => {
  it("tells staff when to try again after a 429, from Retry-After", () => {
    expect(describeFailure(failed(429, "RATE_LIMITED", { "Retry-After": "30" }))).toBe(
      "Too many requests. Try again in 30 seconds.",
    );
    expect(describeFailure(failed(429, "RATE_LIMITED", { "Retry-After": "1" }))).toBe(
      "Too many requests. Try again in 1 second.",
    );
    expect(describeFailure(failed(429, "RATE_LIMITED"))).toBe("Too many requests. Try again in a moment.");
  });

  it("names a database outage, and says so when the app is already retrying", () => {
    const outage = failed(503, "UNAVAILABLE", { "Retry-After": "5" });
    expect(describeFailure(outage)).toBe("The store's database is unavailable. Try again in 5 seconds.");
    expect(describeFailure(outage, { retrying: true })).toBe("The store's database is unavailable. Retrying…");
  });

  it("otherwise uses the API's own message", () => {
    expect(describeFailure(failed(500, "INTERNAL"))).toBe("The API's own words for INTERNAL.");
  });
});

describe("isTransientFailure", () => {
  it("retries faults and lost connections, not a 4xx or a rate limit", () => {
    expect(isTransientFailure(new TypeError("Failed to fetch"))).toBe(true);
    expect(isTransientFailure(failed(503, "UNAVAILABLE"))).toBe(true);
    expect(isTransientFailure(failed(429, "RATE_LIMITED"))).toBe(false);
    expect(isTransientFailure(failed(400, "VALIDATION_ERROR"))).toBe(false);
  });
});
