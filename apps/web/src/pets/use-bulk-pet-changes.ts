import type { Pet } from "@petstore/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useContext, useState } from "react";
import { isUnauthorized } from "../api/api-errors.js";
import { petQueryKeys, usePetstoreClient } from "../api/petstore-client.js";
import { RateLimitPacer } from "../api/rate-limit-pacer.js";
import { CreateRetrySleepContext } from "../api/retry-create.js";
import type { Sleep } from "../api/sleep.js";
import { useShowStatusMessage, type StatusMessageFollowUp } from "../design-system/status-message.js";
import { useMayReturnSoldPets } from "../session/permissions.js";
import { bulkSummary, undoSummary, type BulkAction, type PetOutcome } from "./bulk-changes.js";
import { deletePet, outcomeOf, restorePet, updatePet, type PetChangesClient } from "./pet-change-requests.js";
import { forEachConcurrently } from "./pet-import.js";
import { statusChangePatch } from "./pet-patches.js";

/** Requests in flight at once: a page of 100 pets goes quickly, gently on the API's rate limit. */
export const BULK_CONCURRENCY = 4;
/** The list's bulk changes are announced on the list. */
const PETS_PATH = "/pets";

/** One pet's part of a run: its request, paced with the rest of the run. */
type PetWork = (pet: Pet, pacer: RateLimitPacer) => Promise<PetOutcome>;

/**
 * Runs `work` for every pet, BULK_CONCURRENCY at a time, one request per pet; resolves with each pet's
 * outcome in the order given. A refused session (401) stops the run and is thrown.
 */
export async function runForEachPet(
  pets: readonly Pet[],
  work: PetWork,
  { sleep, onOutcome }: { sleep: Sleep; onOutcome?: (outcome: PetOutcome) => void },
): Promise<PetOutcome[]> {
  const pacer = new RateLimitPacer(sleep);
  const outcomes = new Map<number, PetOutcome>();
  let refused: unknown;
  await forEachConcurrently(
    pets,
    BULK_CONCURRENCY,
    async (pet) => {
      try {
        const outcome = await work(pet, pacer);
        outcomes.set(pet.id, outcome);
        onOutcome?.(outcome);
      } catch (failure) {
        if (!isUnauthorized(failure)) throw failure;
        refused = failure;
      }
    },
    () => refused !== undefined,
  );
  if (refused !== undefined) throw refused;
  return pets.flatMap((pet) => outcomes.get(pet.id) ?? []);
}

/** Each pet's request for `action`: a patch that tests the status the list showed, or a delete. */
export function workFor(action: BulkAction, client: PetChangesClient, sleep: Sleep): PetWork {
  if (action.kind === "delete")
    return (pet, pacer) => outcomeOf(pet, () => deletePet(client, pet.id, { sleep, pacer }));
  const { to } = action.action;
  return async (pet, pacer) => {
    if (pet.status === to) return { pet, result: "unchanged" };
    return outcomeOf(pet, () => updatePet(client, pet.id, statusChangePatch(pet.status, to), { sleep, pacer }));
  };
}

/** What Undo sends for each pet `action` changed (as it was before): the status back, testing the new one; or a restore. */
export function undoWorkFor(action: BulkAction, client: PetChangesClient, sleep: Sleep): PetWork {
  if (action.kind === "delete")
    return (pet, pacer) => outcomeOf(pet, () => restorePet(client, pet.id, { sleep, pacer }));
  const { to } = action.action;
  return (pet, pacer) =>
    outcomeOf(pet, () => updatePet(client, pet.id, statusChangePatch(to, pet.status), { sleep, pacer }));
}

export interface BulkRun {
  action: BulkAction;
  pets: readonly Pet[];
}

export interface BulkProgress {
  done: number;
  total: number;
}

/**
 * The list's bulk changes: one request per selected pet, each with its own Idempotency-Key and a `test`
 * of the status the list showed. The run ends with a status message that takes the focus: how many
 * changed, each pet refused and why, and `Undo` where this session may undo.
 */
export function useBulkPetChanges({ onFinished }: { onFinished: () => void }) {
  const petstore = usePetstoreClient();
  const queryClient = useQueryClient();
  const sleep = useContext(CreateRetrySleepContext);
  const showStatusMessage = useShowStatusMessage();
  const mayReturnSold = useMayReturnSoldPets();
  const [progress, setProgress] = useState<BulkProgress | null>(null);

  const undo = async (action: BulkAction, pets: readonly Pet[]): Promise<StatusMessageFollowUp> => {
    try {
      const outcomes = await runForEachPet(pets, undoWorkFor(action, petstore.petChanges, sleep), { sleep });
      return undoSummary(action, outcomes);
    } finally {
      await queryClient.invalidateQueries({ queryKey: petQueryKeys.all });
    }
  };

  const run = useMutation({
    mutationFn: ({ action, pets }: BulkRun) => {
      setProgress({ done: 0, total: pets.length });
      return runForEachPet(pets, workFor(action, petstore.petChanges, sleep), {
        sleep,
        onOutcome: () => setProgress((current) => current && { ...current, done: current.done + 1 }),
      });
    },
    onSettled: () => {
      setProgress(null);
      void queryClient.invalidateQueries({ queryKey: petQueryKeys.all });
    },
    onSuccess: (outcomes, { action }) => {
      const { message, details, tone, undoable } = bulkSummary(action, outcomes, mayReturnSold);
      showStatusMessage(message, PETS_PATH, {
        tone,
        details,
        focus: true,
        action: undoable.length > 0 ? { label: "Undo", run: () => undo(action, undoable) } : undefined,
      });
      onFinished();
    },
  });

  return {
    start: (bulkRun: BulkRun) => {
      if (!run.isPending && bulkRun.pets.length > 0) run.mutate(bulkRun);
    },
    running: run.isPending,
    progress,
  };
}
