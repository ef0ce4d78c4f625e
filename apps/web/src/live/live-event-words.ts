import type { Event } from "@petstore/contract";

interface PetFields {
  name: string;
  categoryId: number;
  status?: string | undefined;
}

/** The pet a `pet.*` event is about; undefined for other events. */
export function petIdOf(event: Pick<Event, "type" | "data">): number | undefined {
  if (!event.type.startsWith("pet.")) return undefined;
  const data = event.data as { id?: number; pet?: { id: number } };
  return data.pet?.id ?? data.id;
}

/** What another person's change did, in a sentence for the live region ("Rex was marked sold by Ana."). */
export function liveEventSentence(event: Pick<Event, "type" | "data">, by?: string): string | undefined {
  const what = changeWords(event);
  return what === undefined ? undefined : `${what}${by ? ` by ${by}` : ""}.`;
}

function changeWords(event: Pick<Event, "type" | "data">): string | undefined {
  switch (event.type) {
    case "pet.created":
      return `${(event.data as PetFields).name} was added`;
    case "pet.deleted":
      return `${(event.data as PetFields).name} was deleted`;
    case "pet.restored":
      return `${(event.data as PetFields).name} was restored`;
    case "pet.updated": {
      const { pet, previousAttributes } = event.data as {
        pet: PetFields;
        previousAttributes: Partial<{ name: string; categoryId: number; status: string | null }>;
      };
      if (previousAttributes.name !== undefined) return `${previousAttributes.name} was renamed ${pet.name}`;
      if (previousAttributes.status !== undefined)
        return pet.status ? `${pet.name} was marked ${pet.status}` : `${pet.name}'s status was cleared`;
      if (previousAttributes.categoryId !== undefined) return `${pet.name} moved to category ${pet.categoryId}`;
      return `${pet.name} was changed`;
    }
    default:
      return undefined;
  }
}
