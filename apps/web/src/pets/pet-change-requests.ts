import type { Pet, PetPatch } from "@petstore/contract";
import { describeFailure, isUnauthorized } from "../api/api-errors.js";
import type { PetstoreClient } from "../api/petstore-client.js";
import { sendChangeWithRetry, type ChangeRetryOptions } from "../api/retry-change.js";
import { newIdempotencyKey } from "../api/retry-create.js";
import type { PetOutcome } from "./bulk-changes.js";

/**
 * One request per change, each with an Idempotency-Key of its own that every resend of it reuses
 * (api/retry-change.ts): a lost answer is replayed, the change is never applied twice.
 */

/** Just what these requests need of the app's client. */
export type PetChangesClient = Pick<PetstoreClient["petChanges"], "updatePet" | "deletePet" | "restorePet">;

/** Sends `patch`; resolves with the pet as it is now, rejects with the failure (a 409 when a `test` failed). */
export async function updatePet(
  client: PetChangesClient,
  petId: number,
  patch: PetPatch,
  options?: ChangeRetryOptions,
): Promise<Pet> {
  const key = newIdempotencyKey();
  const answer = await sendChangeWithRetry(
    () => client.updatePet.mutate({ params: { petId }, body: patch, headers: { "idempotency-key": key } }),
    options,
  );
  if (answer.status !== 200) throw answer;
  return answer.body;
}

export async function deletePet(client: PetChangesClient, petId: number, options?: ChangeRetryOptions): Promise<void> {
  const key = newIdempotencyKey();
  await sendChangeWithRetry(
    () => client.deletePet.mutate({ params: { petId }, headers: { "idempotency-key": key } }),
    options,
  );
}

/** Brings a deleted pet back; resolves with it. */
export async function restorePet(client: PetChangesClient, petId: number, options?: ChangeRetryOptions): Promise<Pet> {
  const key = newIdempotencyKey();
  const answer = await sendChangeWithRetry(
    () => client.restorePet.mutate({ params: { petId }, headers: { "idempotency-key": key } }),
    options,
  );
  if (answer.status !== 200) throw answer;
  return answer.body;
}

/**
 * How one pet's change ended, for a run over many: changed, or refused with the reason in words. A refused
 * session (401) is not one pet's problem: it is thrown, so the run stops and the app signs out.
 */
export async function outcomeOf(pet: Pet, change: () => Promise<unknown>): Promise<PetOutcome> {
  try {
    await change();
    return { pet, result: "changed" };
  } catch (failure) {
    if (isUnauthorized(failure)) throw failure;
    return { pet, result: "refused", reason: describeFailure(failure) };
  }
}
