import { describe, expect, it } from "vitest";
import { accessContract } from "./access-contract.js";
import { SCOPES } from "./access-schemas.js";
import { OPERATION_SCOPES, scopeCovers } from "./operation-scopes.js";
import { petstoreContract } from "./petstore-contract.js";

describe("operation scopes", () => {
  it("scopes nest: read < write < admin", () => {
    expect(SCOPES).toEqual(["read", "write", "admin"]);
    expect(scopeCovers("admin", "write")).toBe(true);
    expect(scopeCovers("write", "read")).toBe(true);
    expect(scopeCovers("read", "write")).toBe(false);
    expect(scopeCovers("write", "admin")).toBe(false);
  });

  it("names a scope for every operation of both contracts", () => {
    expect(Object.keys(OPERATION_SCOPES).sort()).toEqual([...Object.keys(petstoreContract), ...Object.keys(accessContract)].sort());
    for (const [operation, scope] of Object.entries(OPERATION_SCOPES)) expect(SCOPES, operation).toContain(scope);
    expect(OPERATION_SCOPES).toMatchObject({ listPets: "read", getPet: "read", createPet: "write", createKey: "admin" });
  });
});
