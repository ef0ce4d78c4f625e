import { describe, expect, it } from "vitest";
import { claimAt, claimValues, highestRole } from "./role-claim.js";

const map = new Map([
  ["petstore-admins", "admin"],
  ["front-desk", "write"],
  ["everyone", "read"],
] as const);

describe("highestRole", () => {
  it("gives the highest role any value maps to", () => {
    expect(highestRole(["everyone", "petstore-admins", "front-desk"], map)).toBe("admin");
    expect(highestRole(["everyone", "front-desk"], map)).toBe("write");
    expect(highestRole(["everyone"], map)).toBe("read");
  });

  it("gives none when no value is mapped, values compared exactly", () => {
    expect(highestRole([], map)).toBeUndefined();
    expect(highestRole(["unmapped", "Petstore-Admins", " front-desk"], map)).toBeUndefined();
  });
});

describe("claimAt and claimValues", () => {
  it("reads a claim by name, a name holding dots first, then a dotted path", () => {
    expect(claimAt({ groups: ["a"] }, "groups")).toEqual(["a"]);
    expect(claimAt({ "https://example.test/roles": ["r"] }, "https://example.test/roles")).toEqual(["r"]);
    expect(claimAt({ realm_access: { roles: ["admin-role"] } }, "realm_access.roles")).toEqual(["admin-role"]);
    expect(claimAt({ realm_access: ["x"] }, "realm_access.roles")).toBeUndefined();
    expect(claimAt({}, "groups")).toBeUndefined();
    expect(claimAt({}, "constructor")).toBeUndefined();
    expect(claimAt({}, "toString.name")).toBeUndefined();
  });

  it("takes a list's strings, or one string, and nothing else", () => {
    expect(claimValues(["a", 1, null, "b"])).toEqual(["a", "b"]);
    expect(claimValues("front-desk")).toEqual(["front-desk"]);
    expect(claimValues(undefined)).toEqual([]);
    expect(claimValues({ a: "b" })).toEqual([]);
    expect(claimValues(true)).toEqual([]);
  });
});
