import type { AccessContract } from "./access-contract.js";
import { type Scope, SCOPES } from "./access-schemas.js";
import type { PetstoreContract } from "./petstore-contract.js";

/**
 * The scope each operation needs, of both contracts; the compiler wants one
 * for every operation. `getSession` answers any valid key.
 */
export const OPERATION_SCOPES = {
  listPets: "read",
  getPet: "read",
  createPet: "write",
  getSession: "read",
  listKeys: "admin",
  createKey: "admin",
  revokeKey: "admin",
  listAuditEvents: "admin",
} as const satisfies Record<keyof PetstoreContract | keyof AccessContract, Scope>;
export type OperationName = keyof typeof OPERATION_SCOPES;

/** True when a key of scope `held` may call an operation that needs `needed`. */
export function scopeCovers(held: Scope, needed: Scope): boolean {
  return SCOPES.indexOf(held) >= SCOPES.indexOf(needed);
}
