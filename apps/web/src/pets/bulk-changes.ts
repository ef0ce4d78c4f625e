import type { Pet } from "@petstore/contract";
import { countOf } from "./pet-import.js";
import { ONLY_ADMIN_RETURNS_SOLD, type StatusAction } from "./pet-patches.js";

/** What the list's toolbar does to the selected pets: move each to a status, or delete each. */
export type BulkAction = { kind: "status"; action: StatusAction } | { kind: "delete" };

/** How one pet's request ended. `pet` is the pet as the list showed it, before the change. */
export type PetOutcome =
  | { pet: Pet; result: "changed" }
  /** It already had the status: nothing was sent. */
  | { pet: Pet; result: "unchanged" }
  | { pet: Pet; result: "refused"; reason: string };

/** The status message a run ends with, and what its Undo puts back. */
export interface BulkSummary {
  message: string;
  /** One line per pet not changed, naming it and why. */
  details: string[];
  tone: "success" | "info";
  /** The pets Undo reverts (as they were before); empty when there is nothing this session may undo. */
  undoable: Pet[];
}

/** "3 pets", or "2 of 3 pets" when some were not changed. */
function howMany(changed: number, total: number): string {
  return changed === total ? countOf(total, "pet", "pets") : `${changed} of ${countOf(total, "pet", "pets")}`;
}

function headline(action: BulkAction, changed: number, total: number): string {
  const pets = howMany(changed, total);
  if (action.kind === "delete") return `Deleted ${pets}.`;
  switch (action.action.to) {
    case "pending":
      return `Reserved ${pets}.`;
    case "sold":
      return `Marked ${pets} sold.`;
    case "available":
      return `Marked ${pets} available.`;
  }
}

/** "Title count": how many pets an action's confirmation is about, e.g. "Mark 3 pets sold", "Delete 1 pet". */
export function bulkConfirmTitle(action: BulkAction, count: number): string {
  const pets = countOf(count, "pet", "pets");
  if (action.kind === "delete") return `Delete ${pets}`;
  return action.action.to === "pending" ? `Reserve ${pets}` : `Mark ${pets} ${action.action.to}`;
}

/** Whether an action asks first: selling (only an admin returns a sold pet) and deleting. */
export function bulkActionAsksFirst(action: BulkAction): boolean {
  return action.kind === "delete" || action.action.to === "sold";
}

function refusals(outcomes: readonly PetOutcome[], notDone: string): string[] {
  return outcomes.flatMap((outcome) =>
    outcome.result === "refused" ? [`${outcome.pet.name} was not ${notDone}: ${outcome.reason}`] : [],
  );
}

/**
 * What a run of one action over the selected pets says: how many changed, each pet refused with the
 * reason, each that already had the status. Undo is offered for the changed pets, except after a sale by
 * a session that may not return a sold pet: the message says so instead.
 */
export function bulkSummary(action: BulkAction, outcomes: readonly PetOutcome[], mayReturnSold: boolean): BulkSummary {
  const changed = outcomes.filter((outcome) => outcome.result === "changed").map((outcome) => outcome.pet);
  const details = [
    ...refusals(outcomes, action.kind === "delete" ? "deleted" : "changed"),
    ...outcomes.flatMap((outcome) =>
      outcome.result === "unchanged" && action.kind === "status"
        ? [`${outcome.pet.name} was already ${action.action.to}.`]
        : [],
    ),
  ];
  const soldForGood = action.kind === "status" && action.action.to === "sold" && !mayReturnSold && changed.length > 0;
  if (soldForGood) details.push(ONLY_ADMIN_RETURNS_SOLD);
  return {
    message: headline(action, changed.length, outcomes.length),
    details,
    tone: outcomes.some((outcome) => outcome.result === "refused") ? "info" : "success",
    undoable: soldForGood ? [] : changed,
  };
}

/** What an Undo says: how many pets are back as they were, and each that could not be put back. */
export function undoSummary(action: BulkAction, outcomes: readonly PetOutcome[]): Omit<BulkSummary, "undoable"> {
  const changed = outcomes.filter((outcome) => outcome.result === "changed").length;
  const pets = howMany(changed, outcomes.length);
  const deleting = action.kind === "delete";
  return {
    message: deleting ? `Restored ${pets}.` : `Undid the change to ${pets}.`,
    details: refusals(outcomes, deleting ? "restored" : "changed back"),
    tone: changed === outcomes.length ? "success" : "info",
  };
}
