import type { Pet, PetPatch } from "@petstore/contract";
import type { AuditContext } from "../activity/audit-event.js";

/**
 * What a change of a pet is asked and answers (pet-changes.ts), apart from how it is made, so the
 * repositories (pet-repository.ts) can name them without importing the unit of work.
 */

export type PetChangeRequest =
  | { operation: "updatePet"; petId: number; patch: PetPatch }
  | { operation: "deletePet"; petId: number }
  | { operation: "restorePet"; petId: number };

export interface PetChangeCall {
  request: PetChangeRequest;
  audit: AuditContext;
  /** The caller's scope covers `admin`: only then may a pet leave `sold`. */
  mayReturnSold: boolean;
  /** An `Idempotency-Key`, and the caller it is scoped to (Caller.storeKey). */
  idempotency?: { scope: string; key: string } | undefined;
}

export type PetChangeOutcome =
  /** Answered 200 with the pet (`pet`) or 204 (none); `replayed`: the remembered answer to an earlier request with the key. */
  | { kind: "done"; status: 200 | 204; pet: Pet | undefined; replayed: boolean }
  | { kind: "not-found" }
  /** A `test` failed: nothing changed. */
  | { kind: "conflict"; message: string }
  | { kind: "invalid"; issues: Array<{ field: string; message: string }> }
  | { kind: "forbidden"; message: string }
  /** The key was used with another operation, pet or body. */
  | { kind: "reused" }
  /** Another request with the key has not committed yet (PostgreSQL). */
  | { kind: "in-flight" };

/** An updatePet without an Idempotency-Key, made at `at`, committed before it settles. */
export type UnkeyedUpdate = (
  call: PetChangeCall & { request: { operation: "updatePet" } },
  at: Date,
) => Promise<PetChangeOutcome>;
