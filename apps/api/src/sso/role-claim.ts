import { SCOPES, type Scope } from "@petstore/contract";

/**
 * A claim by name, or else by a dotted path (`realm_access.roles`, Keycloak's realm roles). The name
 * is tried whole first: namespaced claims such as `https://example.com/roles` hold dots of their own.
 */
export function claimAt(claims: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  let value: unknown = claims;
  for (const part of name.split(".")) {
    if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.hasOwn(value, part))
      return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The claim's values: a list of strings, or one string; anything else holds none. */
export function claimValues(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return [];
}

/** The highest role any value maps to (admin over write over read), or undefined when none is mapped. */
export function highestRole(values: readonly string[], roleMap: ReadonlyMap<string, Scope>): Scope | undefined {
  let best: Scope | undefined;
  for (const value of values) {
    const role = roleMap.get(value);
    if (role !== undefined && (best === undefined || SCOPES.indexOf(role) > SCOPES.indexOf(best))) best = role;
  }
  return best;
}
