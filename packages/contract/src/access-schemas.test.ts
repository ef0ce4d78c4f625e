import { describe, expect, it } from "vitest";
import {
  ApiKey,
  AuditEvent,
  KeyIdParams,
  KeyName,
  ListAuditEventsQuery,
  NewApiKey,
  Session,
} from "./access-schemas.js";
import { ERROR_CODES, NAME_CHARACTERS_MESSAGE, NAME_PATTERN, PetName } from "./schemas.js";

describe("access schemas", () => {
  it("FORBIDDEN is one of the error codes", () => {
    expect(ERROR_CODES).toContain("FORBIDDEN");
  });

  it("NewApiKey: trims the name, knows the scopes, wants a future ISO date-time", () => {
    expect(NewApiKey.parse({ name: "  Front desk ", scope: "read", extra: 1 })).toEqual({
      name: "Front desk",
      scope: "read",
    });
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
    for (const bad of ["configured-1", "7.0", "0", "-1", "0x7"])
      expect(KeyIdParams.safeParse({ keyId: bad }).success).toBe(false);
    expect(ListAuditEventsQuery.parse({})).toEqual({ limit: 20 });
    expect(ListAuditEventsQuery.safeParse({ limit: "101" }).success).toBe(false);
    expect(ListAuditEventsQuery.safeParse({ action: "pet.eaten" }).success).toBe(false);
    expect(ListAuditEventsQuery.parse({ action: "key.revoked", targetType: "key", targetId: "3", after: "9" })).toEqual(
      {
        limit: 20,
        action: "key.revoked",
        targetType: "key",
        targetId: 3,
        after: 9,
      },
    );
  });

  it("NewApiKey: a key's name follows the name rule of pets, one regex: no unpaired surrogate, no bidirectional formatting character", () => {
    expect(KeyName._def.typeName).toBe("ZodString"); // no refine: the rule is a regex check, as on PetName
    expect(KeyName._def.checks).toEqual(PetName._def.checks);
    for (const bad of [
      "\ud800",
      "Front\udc00desk",
      "Front desk\u202e",
      "\u2066Admin",
      "Admin\u200f",
      "a\u061cb",
      "a\u0000b",
      "a\u0085b",
    ]) {
      const result = NewApiKey.safeParse({ name: bad, scope: "read" });
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
        ["name", NAME_CHARACTERS_MESSAGE],
      ]);
    }
    for (const good of ["Réception 🐕", "שלום", "  Front desk\t"])
      expect(NewApiKey.safeParse({ name: good, scope: "read" }).success, good).toBe(true);
  });

  const key = {
    id: 7,
    name: "Front desk",
    scope: "read",
    prefix: "psk_Vq3x9T-_",
    createdAt: "2026-11-24T09:30:00.000Z",
    createdBy: "Configured key 1",
    createdByStaffId: null,
    lastUsedAt: null,
    lastDeprecatedUseAt: null,
    expiresAt: null,
    revokedAt: null,
  };
  const event = {
    id: 1,
    at: "2026-11-24T09:30:00.000Z",
    action: "key.created",
    actor: { keyId: "configured-3f9a0c1b2d4e", staffId: null, name: "Configured key 1" },
    target: { type: "key", id: 7, label: "Front desk" },
    detail: null,
    requestId: "0b6f7c1e-3f1a-4d8e-9a55-2c1d7e9b4f10",
    clientAddress: "203.0.113.7",
  };

  it("Session, ApiKey and AuditEvent: ids, prefixes, request ids and addresses as the API writes them", () => {
    for (const keyId of ["7", "123456789", "configured-3f9a0c1b2d4e", "configured-000000000000"])
      expect(
        Session.safeParse({ keyId, staffId: null, name: "A", scope: "read", expiresAt: null }).success,
        keyId,
      ).toBe(true);
    for (const keyId of [
      "",
      "0",
      "07",
      "operator",
      "configured-1",
      "configured-0",
      "configured-",
      "Configured-1",
      "configured-3F9A0C1B2D4E",
      "configured-3f9a0c1b2d4",
      "configured-3f9a0c1b2d4e0",
      "7 ",
      "key-7",
    ]) {
      expect(
        Session.safeParse({ keyId, staffId: null, name: "A", scope: "read", expiresAt: null }).success,
        keyId,
      ).toBe(false);
    }
    expect(ApiKey.safeParse(key).success).toBe(true);
    for (const prefix of ["psk_Vq3x9Tb", "psk_Vq3x9TbZ0", "PSK_Vq3x9TbZ", "psk_Vq3x9Tb=", "xxxxVq3x9TbZ"])
      expect(ApiKey.safeParse({ ...key, prefix }).success, prefix).toBe(false);
    for (const createdBy of ["Configured key 1", "Front desk", null])
      expect(ApiKey.safeParse({ ...key, createdBy }).success).toBe(true);
    expect(AuditEvent.safeParse(event).success).toBe(true);
    for (const keyId of ["operator", "7", "configured-3f9a0c1b2d4e"])
      expect(
        AuditEvent.safeParse({ ...event, actor: { keyId, staffId: null, name: "Operator command" } }).success,
        keyId,
      ).toBe(true);
    expect(AuditEvent.safeParse({ ...event, actor: { keyId: "someone", staffId: null, name: "x" } }).success).toBe(
      false,
    );
    for (const clientAddress of [
      "203.0.113.7",
      "::1",
      "::ffff:127.0.0.1",
      "2001:db8::7",
      "fe80::1%eth0",
      "fe80::1%a:b",
      null,
    ]) {
      expect(AuditEvent.safeParse({ ...event, clientAddress }).success, String(clientAddress)).toBe(true);
    }
    for (const clientAddress of ["", "unknown", "203.0.113.7, 10.0.0.1", "<script>", "1.2.3"])
      expect(AuditEvent.safeParse({ ...event, clientAddress }).success, clientAddress).toBe(false);
    expect(AuditEvent.safeParse({ ...event, requestId: null }).success).toBe(true);
    for (const requestId of ["0b6f7c1e-3f1a-4d8e-9a55-2c1d7e9b4f10", "request-1"])
      expect(AuditEvent.safeParse({ ...event, requestId }).success, requestId).toBe(true);
    for (const requestId of ["", "x".repeat(37), "a b", "<script>", "id\u202e"]) {
      expect(AuditEvent.safeParse({ ...event, requestId }).success, requestId).toBe(false);
    }
  });

  it("the names an answer carries (a key's, a label, an actor's) follow the name rule", () => {
    for (const name of ["Front\u202edesk", "\ud800"]) {
      expect(Session.safeParse({ keyId: "7", staffId: null, name, scope: "read", expiresAt: null }).success).toBe(
        false,
      );
      expect(ApiKey.safeParse({ ...key, name }).success).toBe(false);
      expect(ApiKey.safeParse({ ...key, createdBy: name }).success).toBe(false);
      expect(AuditEvent.safeParse({ ...event, actor: { keyId: "7", staffId: null, name } }).success).toBe(false);
      expect(AuditEvent.safeParse({ ...event, target: { ...event.target, label: name } }).success).toBe(false);
    }
    for (const label of [Session.shape.name, AuditEvent.shape.target.shape.label]) {
      expect(label._def.checks.some((check) => check.kind === "regex" && check.regex === NAME_PATTERN)).toBe(true);
    }
  });
});
