import { describe, expect, it } from "vitest";
import { KeyIdParams, ListAuditEventsQuery, NewApiKey } from "./access-schemas.js";
import { ERROR_CODES } from "./schemas.js";

describe("access schemas", () => {
  it("FORBIDDEN is one of the error codes", () => {
    expect(ERROR_CODES).toContain("FORBIDDEN");
  });

  it("NewApiKey: trims the name, knows the scopes, wants a future ISO date-time", () => {
    expect(NewApiKey.parse({ name: "  Front desk ", scope: "read", extra: 1 })).toEqual({ name: "Front desk", scope: "read" });
    expect(NewApiKey.safeParse({ name: "", scope: "read" }).success).toBe(false);
    expect(NewApiKey.safeParse({ name: "x".repeat(101), scope: "read" }).success).toBe(false);
    expect(NewApiKey.safeParse({ name: "a\u0000b", scope: "read" }).success).toBe(false);
    expect(NewApiKey.safeParse({ name: "A", scope: "owner" }).success).toBe(false);
    expect(NewApiKey.safeParse({ name: "A", scope: "read", expiresAt: "tomorrow" }).success).toBe(false);
    expect(NewApiKey.safeParse({ name: "A", scope: "read", expiresAt: "2001-01-01T00:00:00Z" }).success).toBe(false);
    expect(NewApiKey.safeParse({ name: "A", scope: "read", expiresAt: "2999-01-01T00:00:00Z" }).success).toBe(true);
  });

  it("keyId and the audit filters take decimal digits only", () => {
    expect(KeyIdParams.parse({ keyId: "7" })).toEqual({ keyId: 7 });
    for (const bad of ["configured-1", "7.0", "0", "-1", "0x7"]) expect(KeyIdParams.safeParse({ keyId: bad }).success).toBe(false);
    expect(ListAuditEventsQuery.parse({})).toEqual({ limit: 20 });
    expect(ListAuditEventsQuery.safeParse({ limit: "101" }).success).toBe(false);
    expect(ListAuditEventsQuery.safeParse({ action: "pet.deleted" }).success).toBe(false);
    expect(ListAuditEventsQuery.parse({ action: "key.revoked", targetType: "key", targetId: "3", after: "9" })).toEqual({
      limit: 20,
      action: "key.revoked",
      targetType: "key",
      targetId: 3,
      after: 9,
    });
  });
});
