import { SCOPES, type Scope } from "@petstore/contract";

/**
 * Single sign-on's settings, read from OIDC_* by env.ts and handed to `sso/`. Here, below both,
 * so the parsing that validates the environment is the parsing that the sign-in uses.
 */
export interface SingleSignOnSettings {
  /** `OIDC_ISSUER`, an `https` URL (openid-client refuses plain http). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** `OIDC_DISPLAY_NAME`: the button reads `Sign in with <displayName>`. */
  displayName: string;
  /** `OIDC_ROLE_CLAIM`: the claim holding the groups or roles (a name, or a dotted path like `realm_access.roles`). */
  roleClaim: string;
  /** `OIDC_ROLE_MAP`: a claim value to the role it gives. */
  roleMap: ReadonlyMap<string, Scope>;
  /** `OIDC_SCOPES`: asked for beside `openid email profile`. */
  extraScopes: readonly string[];
}

export const DEFAULT_SSO_DISPLAY_NAME = "single sign-on";
export const DEFAULT_SSO_ROLE_CLAIM = "groups";

/**
 * Parses `petstore-admins=admin,front-desk=write`: comma-separated `value=role` pairs, the role one of
 * the key scopes, each value once. The value is split at its last `=`, so a value may hold one.
 * Returns a one-line problem instead of throwing, for env.ts to report.
 */
export function parseRoleMap(text: string): { map: ReadonlyMap<string, Scope> } | { problem: string } {
  const map = new Map<string, Scope>();
  const pairs = text
    .split(",")
    .map((pair) => pair.trim())
    .filter((pair) => pair.length > 0);
  if (pairs.length === 0) return { problem: `must list value=role pairs like petstore-admins=admin,front-desk=write` };
  for (const pair of pairs) {
    const at = pair.lastIndexOf("=");
    const value = at < 0 ? "" : pair.slice(0, at).trim();
    const role = at < 0 ? "" : pair.slice(at + 1).trim();
    if (value.length === 0 || role.length === 0) {
      return {
        problem: `must list value=role pairs like petstore-admins=admin,front-desk=write ("${pair}" is not one)`,
      };
    }
    if (!SCOPES.includes(role as Scope)) {
      return { problem: `gives "${value}" the role "${role}"; a role is one of ${SCOPES.join(", ")}` };
    }
    const earlier = map.get(value);
    if (earlier !== undefined && earlier !== role) {
      return { problem: `gives "${value}" two roles (${earlier} and ${role})` };
    }
    map.set(value, role as Scope);
  }
  return { map };
}

/** Splits `OIDC_SCOPES` (spaces or commas); a scope token is printable ASCII without `"` or `\` (RFC 6749, 3.3). */
export function parseScopes(text: string): { scopes: string[] } | { problem: string } {
  const scopes = text.split(/[\s,]+/).filter((scope) => scope.length > 0);
  const bad = scopes.find((scope) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope));
  if (bad !== undefined)
    return { problem: `holds "${bad}", which is not a scope token (printable ASCII without quotes or backslashes)` };
  return { scopes: [...new Set(scopes)] };
}
