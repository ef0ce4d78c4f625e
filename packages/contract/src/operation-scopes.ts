import { accessContract } from "./access-contract.js";
import { type Scope, SCOPES } from "./access-schemas.js";
import { petstoreContract } from "./petstore-contract.js";
import type { RouteMetadata } from "./route-metadata.js";

/**
 * The scope of each route of `contract`, read from its `metadata.scope`. The
 * compiler refuses a contract with a route that lacks its metadata, or whose
 * scope widened to `string` (write the metadata `satisfies RouteMetadata`).
 */
function scopesOf<Contract extends Record<string, { metadata: RouteMetadata }>>(
  contract: Contract,
): { readonly [Operation in keyof Contract]: Contract[Operation]["metadata"]["scope"] } {
  return Object.fromEntries(
    Object.entries(contract).map(([operation, route]) => {
      const scope = route.metadata.scope as unknown;
      if (!SCOPES.includes(scope as Scope)) throw new Error(`${operation}: no scope; add metadata.scope to its route`);
      return [operation, scope];
    }),
  ) as { readonly [Operation in keyof Contract]: Contract[Operation]["metadata"]["scope"] };
}

/**
 * The scope each operation needs, of both contracts, as each route declares
 * it (`metadata.scope`, see `RouteMetadata`). `getSession` answers any valid key.
 */
export const OPERATION_SCOPES = Object.freeze({ ...scopesOf(petstoreContract), ...scopesOf(accessContract) });
export type OperationName = keyof typeof OPERATION_SCOPES;

/** True when a key of scope `held` may call an operation that needs `needed`. */
export function scopeCovers(held: Scope, needed: Scope): boolean {
  return SCOPES.indexOf(held) >= SCOPES.indexOf(needed);
}
