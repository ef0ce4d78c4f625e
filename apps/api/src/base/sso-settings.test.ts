import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "./env.js";
import { parseRoleMap, parseScopes } from "./sso-settings.js";

const SSO = {
  OIDC_ISSUER: "https://idp.example.test/realms/petstore",
  OIDC_CLIENT_ID: "petstore-admin",
  OIDC_CLIENT_SECRET: "a-client-secret-nobody-may-see",
  OIDC_ROLE_MAP: "petstore-admins=admin,front-desk=write",
};

function problemOf(env: Record<string, string>): string {
  try {
    readConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    expect(message).not.toContain(SSO.OIDC_CLIENT_SECRET);
    return message;
  }
  throw new Error("expected a ConfigError");
}

describe("parseRoleMap", () => {
  it("maps each value to its role; spaces around items are ignored; a value may hold '='", () => {
    const parsed = parseRoleMap(" petstore-admins=admin , front-desk = write,,/staff/readers=read,a=b=read ");
    expect("map" in parsed && [...parsed.map]).toEqual([
      ["petstore-admins", "admin"],
      ["front-desk", "write"],
      ["/staff/readers", "read"],
      ["a=b", "read"],
    ]);
  });

  it("takes the same pair twice, and refuses one value given two roles", () => {
    expect("map" in parseRoleMap("x=read,x=read")).toBe(true);
    expect(parseRoleMap("x=read,x=admin")).toEqual({ problem: 'gives "x" two roles (read and admin)' });
  });

  it("refuses an empty map, a pair without a value or role, and an unknown role", () => {
    expect(parseRoleMap(" , ")).toMatchObject({ problem: expect.stringMatching(/must list value=role pairs/) });
    expect(parseRoleMap("petstore-admins")).toMatchObject({
      problem: expect.stringContaining('"petstore-admins" is not one'),
    });
    expect(parseRoleMap("=admin")).toMatchObject({ problem: expect.stringContaining('"=admin" is not one') });
    expect(parseRoleMap("x=")).toMatchObject({ problem: expect.stringContaining('"x=" is not one') });
    expect(parseRoleMap("x=owner")).toEqual({
      problem: 'gives "x" the role "owner"; a role is one of read, write, admin',
    });
    expect(parseRoleMap("x=Admin")).toMatchObject({ problem: expect.stringContaining('the role "Admin"') });
  });
});

describe("parseScopes", () => {
  it("splits on spaces and commas, once each", () => {
    expect(parseScopes("groups offline_access, groups,roles")).toEqual({
      scopes: ["groups", "offline_access", "roles"],
    });
    expect(parseScopes("  ")).toEqual({ scopes: [] });
  });

  it("refuses a character that no scope token holds", () => {
    expect(parseScopes('groups "roles"')).toMatchObject({ problem: expect.stringContaining('"roles"') });
    expect(parseScopes("gr\\oups")).toMatchObject({ problem: expect.stringContaining("not a scope token") });
  });
});

describe("readConfig: single sign-on", () => {
  it("is off when no OIDC_ setting is given", () => {
    expect(readConfig({}).singleSignOn).toBeUndefined();
  });

  it("is on with the issuer, client id, secret and role map, with the documented defaults", () => {
    const sso = readConfig(SSO).singleSignOn!;
    expect(sso).toMatchObject({
      issuer: SSO.OIDC_ISSUER,
      clientId: SSO.OIDC_CLIENT_ID,
      clientSecret: SSO.OIDC_CLIENT_SECRET,
      displayName: "single sign-on",
      roleClaim: "groups",
      extraScopes: [],
    });
    expect([...sso.roleMap]).toEqual([
      ["petstore-admins", "admin"],
      ["front-desk", "write"],
    ]);
  });

  it("reads the display name, role claim and extra scopes", () => {
    const sso = readConfig({
      ...SSO,
      OIDC_DISPLAY_NAME: "Acme Workspace",
      OIDC_ROLE_CLAIM: "realm_access.roles",
      OIDC_SCOPES: "groups roles",
    }).singleSignOn!;
    expect(sso).toMatchObject({
      displayName: "Acme Workspace",
      roleClaim: "realm_access.roles",
      extraScopes: ["groups", "roles"],
    });
    // Empty means unset, as everywhere.
    expect(readConfig({ ...SSO, OIDC_DISPLAY_NAME: "", OIDC_ROLE_CLAIM: "" }).singleSignOn).toMatchObject({
      displayName: "single sign-on",
      roleClaim: "groups",
    });
  });

  it("needs the issuer, client id and secret together: one line naming what is missing, never the secret", () => {
    expect(problemOf({ OIDC_ISSUER: SSO.OIDC_ISSUER })).toBe(
      "Invalid configuration: OIDC_CLIENT_ID is required with OIDC_ISSUER: single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or none of them",
    );
    expect(problemOf({ OIDC_ISSUER: SSO.OIDC_ISSUER, OIDC_CLIENT_ID: "x", OIDC_ROLE_MAP: SSO.OIDC_ROLE_MAP })).toMatch(
      /^Invalid configuration: OIDC_CLIENT_SECRET is required with OIDC_ISSUER and OIDC_CLIENT_ID: /,
    );
    expect(problemOf({ OIDC_CLIENT_ID: "x", OIDC_CLIENT_SECRET: SSO.OIDC_CLIENT_SECRET })).toMatch(
      /^Invalid configuration: OIDC_ISSUER is required with OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: /,
    );
  });

  it("needs a role map with single sign-on", () => {
    const { OIDC_ROLE_MAP: _map, ...withoutMap } = SSO;
    expect(problemOf(withoutMap)).toMatch(/^Invalid configuration: OIDC_ROLE_MAP is required with single sign-on: /);
  });

  it("refuses an http or malformed issuer, a bad role map, claim or scope, and a long display name", () => {
    expect(problemOf({ ...SSO, OIDC_ISSUER: "http://idp.example.test" })).toMatch(
      /^Invalid configuration: OIDC_ISSUER must be an https:\/\/ URL/,
    );
    expect(problemOf({ ...SSO, OIDC_ISSUER: "idp.example.test" })).toMatch(
      /^Invalid configuration: OIDC_ISSUER must be the identity provider's issuer URL/,
    );
    expect(problemOf({ ...SSO, OIDC_ROLE_MAP: "petstore-admins=root" })).toBe(
      'Invalid configuration: OIDC_ROLE_MAP gives "petstore-admins" the role "root"; a role is one of read, write, admin',
    );
    expect(problemOf({ ...SSO, OIDC_ROLE_CLAIM: "my groups" })).toMatch(
      /^Invalid configuration: OIDC_ROLE_CLAIM must be one claim name/,
    );
    expect(problemOf({ ...SSO, OIDC_SCOPES: 'a"b' })).toMatch(/^Invalid configuration: OIDC_SCOPES holds "a"b"/);
    expect(problemOf({ ...SSO, OIDC_DISPLAY_NAME: "x".repeat(61) })).toBe(
      "Invalid configuration: OIDC_DISPLAY_NAME must be at most 60 characters",
    );
  });
});
