import { type Scope, SCOPES } from "./access-schemas.js";
import { operationsOf } from "./operations.js";
import { adminContract, v1Contract } from "./root.js";
import { CREDENTIALS, type Credential, type RouteMetadata } from "./route-metadata.js";

type Routes = Record<string, { metadata: RouteMetadata }>;

/**
 * The credential of each route of `contract`, read from its `metadata.credential`. Throws when a route
 * declares none (or an unknown one), or a bearer-like credential without a scope: every route declares one.
 */
export function operationCredentials<Contract extends Routes>(
  contract: Contract,
): { readonly [Operation in keyof Contract]: Credential } {
  return Object.fromEntries(
    Object.entries(contract).map(([operation, route]) => {
      const metadata = route.metadata as Partial<RouteMetadata> | undefined;
      const credential = metadata?.credential as unknown;
      if (!CREDENTIALS.includes(credential as Credential))
        throw new Error(`${operation}: no credential; add metadata.credential to its route`);
      const scoped = credential === "bearer" || credential === "key" || credential === "personToken";
      if (scoped && !SCOPES.includes(metadata?.scope as Scope))
        throw new Error(`${operation}: no scope; add metadata.scope to its route`);
      if (!scoped && metadata?.scope !== undefined)
        throw new Error(`${operation}: a ${String(credential)} route takes no scope`);
      return [operation, credential];
    }),
  ) as { readonly [Operation in keyof Contract]: Credential };
}

/**
 * The scope of each route of `contract` that takes a bearer credential, read from its `metadata.scope`.
 * The compiler refuses a contract with a route that lacks its metadata, or whose scope widened to
 * `string` (write the metadata `satisfies RouteMetadata`).
 */
function scopesOf<Contract extends Routes>(
  contract: Contract,
): {
  // "scope" in the metadata's keys: an `extends { scope: Scope }` test does not see through ts-rest's route types.
  readonly [
    Operation in keyof Contract as "scope" extends keyof Contract[Operation]["metadata"] ? Operation : never
  ]: Contract[Operation]["metadata"]["scope"];
} {
  operationCredentials(contract);
  return Object.fromEntries(
    Object.entries(contract)
      .filter(([, route]) => route.metadata.scope !== undefined)
      .map(([operation, route]) => [operation, route.metadata.scope]),
  ) as never;
}

/**
 * The credential each operation of both contracts takes, as each route declares it
 * (`metadata.credential`, see `RouteMetadata`).
 */
export const OPERATION_CREDENTIALS = Object.freeze({
  ...operationCredentials(operationsOf(v1Contract)),
  ...operationCredentials(operationsOf(adminContract)),
});
/** Every operation of both contracts. */
export type AnyOperationName = keyof typeof OPERATION_CREDENTIALS;

/**
 * The scope each operation that takes a bearer credential needs, of both contracts, as each route
 * declares it (`metadata.scope`, see `RouteMetadata`). `getSession` answers any valid key or token.
 * Operations that take the cookie or nothing are not here.
 */
export const OPERATION_SCOPES = Object.freeze({
  ...scopesOf(operationsOf(v1Contract)),
  ...scopesOf(operationsOf(adminContract)),
});
export type OperationName = keyof typeof OPERATION_SCOPES;

/** True when a key of scope `held` may call an operation that needs `needed`. */
export function scopeCovers(held: Scope, needed: Scope): boolean {
  return SCOPES.indexOf(held) >= SCOPES.indexOf(needed);
}
