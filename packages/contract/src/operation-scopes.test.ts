import { describe, expect, it } from "vitest";
import { SCOPES } from "./access-schemas.js";
import { OPERATION_CREDENTIALS, OPERATION_SCOPES, operationCredentials, scopeCovers } from "./operation-scopes.js";
import { operationsOf } from "./operations.js";
import { adminContract, v1Contract } from "./root.js";

describe("operation scopes", () => {
  it("scopes nest: read < write < admin", () => {
    expect(SCOPES).toEqual(["read", "write", "admin"]);
    expect(scopeCovers("admin", "write")).toBe(true);
    expect(scopeCovers("write", "read")).toBe(true);
    expect(scopeCovers("read", "write")).toBe(false);
    expect(scopeCovers("write", "admin")).toBe(false);
  });

  it("names a credential for every operation of both contracts, and a scope for every bearer one", () => {
    expect(Object.keys(OPERATION_CREDENTIALS).sort()).toEqual(
      [...Object.keys(operationsOf(v1Contract)), ...Object.keys(operationsOf(adminContract))].sort(),
    );
    const scoped = Object.entries(OPERATION_CREDENTIALS).filter(
      ([, credential]) => credential !== "cookie" && credential !== "none",
    );
    expect(Object.keys(OPERATION_SCOPES).sort()).toEqual(scoped.map(([operation]) => operation).sort());
    expect(OPERATION_CREDENTIALS).toMatchObject({
      listPets: "bearer",
      createSessionToken: "cookie",
      signOut: "cookie",
      startKeySession: "key",
      getAccount: "personToken",
      removePasskey: "personToken",
      signOutEverywhere: "personToken",
      getInvitation: "none",
      ssoStart: "none",
      ssoCallback: "none",
      getSignInOptions: "none",
    });
    for (const [operation, scope] of Object.entries(OPERATION_SCOPES)) expect(SCOPES, operation).toContain(scope);
    expect(OPERATION_SCOPES).toMatchObject({
      listPets: "read",
      getPet: "read",
      createPet: "write",
      createKey: "admin",
    });
  });

  it("refuses a route that declares no credential, or a bearer one without a scope", () => {
    const route = { method: "GET", path: "/things", responses: {} };
    expect(() => operationCredentials({ listThings: { ...route, metadata: { tag: "things" } } } as never)).toThrow(
      "listThings: no credential; add metadata.credential to its route",
    );
    expect(() =>
      operationCredentials({ listThings: { ...route, metadata: { credential: "bearer", tag: "things" } } } as never),
    ).toThrow("listThings: no scope; add metadata.scope to its route");
    expect(() =>
      operationCredentials({
        listThings: { ...route, metadata: { credential: "cookie", scope: "read", tag: "things" } },
      } as never),
    ).toThrow("listThings: a cookie route takes no scope");
  });
});
