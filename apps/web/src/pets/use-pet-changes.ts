import type { Pet, PetPatch } from "@petstore/contract";
import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useContext, useState } from "react";
import { describeFailure, errorBodyOf, isNotFound } from "../api/api-errors.js";
import { petQueryKeys, usePetstoreClient, type PetstoreClient } from "../api/petstore-client.js";
import { CreateRetrySleepContext } from "../api/retry-create.js";
import { deletePet, restorePet, updatePet } from "./pet-change-requests.js";

/**
 * What stopped a change on the pet's page:
 * - `conflict`: a `test` failed (409), or the pet is gone (404): someone else changed it since it was
 *   shown. `now` is the pet as it is now (null: deleted; undefined: it could not be read).
 * - `refused`: any other failure, in words (e.g. a write session returning a sold pet: 403).
 */
export type ChangeProblem = { kind: "conflict"; now: Pet | null | undefined } | { kind: "refused"; message: string };

/** A failed `test` is a 409 CONFLICT: the pet is not as the patch said it was shown. */
export function isConflict(error: unknown): boolean {
  return errorBodyOf(error)?.code === "CONFLICT";
}

/**
 * The pet as it is now, asked afresh (not from the cache the page shows), the way the page reads it:
 * listPets from id - 1 rather than the deprecated getPet. Null when it no longer exists.
 */
export async function fetchPetNow(client: PetstoreClient, petId: number): Promise<Pet | null> {
  const answer = await client.pets.listPets.query({ query: { after: petId - 1, limit: 1 } });
  if (answer.status !== 200) throw answer;
  return answer.body.find((pet) => pet.id === petId) ?? null;
}

/** Puts `pet` into the page's cached copy at once, so its buttons follow its new status before the refetch. */
function showChangedPet(queryClient: QueryClient, pet: Pet) {
  queryClient.setQueryData<{ status: number; body: Pet[]; headers: Headers }>(petQueryKeys.detail(pet.id), (cached) =>
    cached ? { ...cached, body: cached.body.map((shown) => (shown.id === pet.id ? pet : shown)) } : cached,
  );
}

interface UpdateRequest {
  patch: PetPatch;
  /** Called with the pet as it is now, once the change is saved. */
  onSaved: (pet: Pet) => void;
}

/**
 * Changing one pet from its page: each request is a patch that tests what the page showed. A conflict
 * leaves everything as it was (nothing is overwritten) and reads the pet afresh for the alert; `reload`
 * then shows it on the page.
 */
export function usePetUpdate(petId: number) {
  const petstore = usePetstoreClient();
  const queryClient = useQueryClient();
  const sleep = useContext(CreateRetrySleepContext);
  const [problem, setProblem] = useState<ChangeProblem | null>(null);

  const mutation = useMutation({
    mutationFn: ({ patch }: UpdateRequest) => updatePet(petstore.petChanges, petId, patch, { sleep }),
    onMutate: () => setProblem(null),
    onSuccess: async (pet, { onSaved }) => {
      showChangedPet(queryClient, pet);
      onSaved(pet);
      await queryClient.invalidateQueries({ queryKey: petQueryKeys.all });
    },
    onError: async (error) => {
      if (isConflict(error) || isNotFound(error)) {
        let now: Pet | null | undefined;
        try {
          now = await fetchPetNow(petstore, petId);
        } catch {
          now = undefined;
        }
        setProblem({ kind: "conflict", now });
        return;
      }
      setProblem({ kind: "refused", message: describeFailure(error) });
    },
  });

  /**
   * Shows the pet as it is now (and its history), and forgets the problem. Resolves with the pet as read
   * (null: gone), before the page has re-rendered with it, for a form to start again from.
   */
  const reload = useCallback(async (): Promise<Pet | null> => {
    await queryClient.invalidateQueries({ queryKey: petQueryKeys.all });
    setProblem(null);
    const cached = queryClient.getQueryData<{ body: Pet[] }>(petQueryKeys.detail(petId));
    return cached?.body.find((pet) => pet.id === petId) ?? null;
  }, [queryClient, petId]);

  return {
    update: (request: UpdateRequest) => mutation.mutate(request),
    pending: mutation.isPending,
    problem,
    dismissProblem: () => setProblem(null),
    reload,
  };
}

/** Deletes a pet; the promise rejects with the failure. */
export function usePetDelete() {
  const petstore = usePetstoreClient();
  const queryClient = useQueryClient();
  const sleep = useContext(CreateRetrySleepContext);
  return useMutation({
    mutationFn: (pet: Pet) => deletePet(petstore.petChanges, pet.id, { sleep }),
    // Not awaited: the page that deleted the pet leaves at once, rather than show it missing.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: petQueryKeys.all }),
  });
}

/**
 * Restoring a deleted pet, as a plain function: an Undo in the status message runs it after the page that
 * deleted the pet has gone.
 */
export function useRestorePet() {
  const petstore = usePetstoreClient();
  const queryClient = useQueryClient();
  const sleep = useContext(CreateRetrySleepContext);
  return useCallback(
    async (petId: number): Promise<Pet> => {
      try {
        return await restorePet(petstore.petChanges, petId, { sleep });
      } finally {
        await queryClient.invalidateQueries({ queryKey: petQueryKeys.all });
      }
    },
    [petstore, queryClient, sleep],
  );
}
