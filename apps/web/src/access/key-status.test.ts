import { describe, expect, it } from "vitest";
import { keyStatus } from "./key-status.js";

const NOW = Date.parse("2026-11-24T12:00:00Z");

describe("a key's status", () => {
  it("is active until it expires, expired from its expiresAt on, revoked once revoked whatever its expiry", () => {
    expect(keyStatus({ revokedAt: null, expiresAt: null }, NOW)).toBe("active");
    expect(keyStatus({ revokedAt: null, expiresAt: "2026-11-24T12:00:01Z" }, NOW)).toBe("active");
    expect(keyStatus({ revokedAt: null, expiresAt: "2026-11-24T12:00:00Z" }, NOW)).toBe("expired");
    expect(keyStatus({ revokedAt: "2026-11-01T00:00:00Z", expiresAt: "2026-11-02T00:00:00Z" }, NOW)).toBe("revoked");
  });
});
