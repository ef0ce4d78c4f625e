import type { PetChange, PetFieldChange } from "@petstore/contract";

/**
 * A pet's history in words: "Marked sold by Ana", "Renamed from Rex to Rex II by Ana". The API names who
 * did it only to sessions that may change pets; otherwise (or when nobody is recorded) it was "someone".
 */

function who(change: PetChange): string {
  return change.by.name ?? "someone";
}

/** A status move as the buttons put it: Reserve, Mark sold, Mark available. */
function statusClause(to: PetFieldChange["to"]): string {
  switch (to) {
    case "pending":
      return "Reserved";
    case "sold":
      return "Marked sold";
    case "available":
      return "Marked available";
    case null:
      return "Status removed";
    default:
      return `Marked ${String(to)}`;
  }
}

/** How a sentence names a category id: its name where known (`Dogs`, `Category 7`); by default `category 7`. */
export type CategoryLabel = (categoryId: number) => string;

const categoryById: CategoryLabel = (categoryId) => `category ${categoryId}`;

function categoryOf(value: PetFieldChange["from"], label: CategoryLabel): string {
  return typeof value === "number" ? label(value) : `category ${String(value)}`;
}

function fieldClause({ field, from, to }: PetFieldChange, label: CategoryLabel): string {
  switch (field) {
    case "name":
      return `Renamed from ${String(from)} to ${String(to)}`;
    case "categoryId":
      return `Moved from ${categoryOf(from, label)} to ${categoryOf(to, label)}`;
    case "status":
      return statusClause(to);
  }
}

/** "A", "A and b", "A, b and c": the clauses after the first start in lower case. */
function joinClauses(clauses: string[]): string {
  const [first = "", ...rest] = clauses;
  const tail = rest.map((clause) => clause.charAt(0).toLowerCase() + clause.slice(1));
  if (tail.length === 0) return first;
  return `${[first, ...tail.slice(0, -1)].join(", ")} and ${tail[tail.length - 1]}`;
}

/** One entry of a pet's history as a sentence, without its time; `categoryLabel` names the categories a move names. */
export function historySentence(change: PetChange, categoryLabel: CategoryLabel = categoryById): string {
  switch (change.action) {
    case "pet.created":
      return `Created by ${who(change)}`;
    case "pet.deleted":
      return `Deleted by ${who(change)}`;
    case "pet.restored":
      return `Restored by ${who(change)}`;
    case "pet.updated": {
      const clauses = change.changes.map((fieldChange) => fieldClause(fieldChange, categoryLabel));
      return `${clauses.length > 0 ? joinClauses(clauses) : "Changed"} by ${who(change)}`;
    }
  }
}
