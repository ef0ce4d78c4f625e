import type { Event } from "@petstore/contract";

interface PetFields {
  name: string;
  categoryId: number;
  status?: string | undefined;
}

/** What another person's change did, in a sentence for the live region ("Rex was marked sold."). */
export function liveEventSentence(event: Pick<Event, "type" | "data">): string | undefined {
  switch (event.type) {
    case "pet.created":
      return `${(event.data as PetFields).name} was added.`;
    case "pet.deleted":
      return `${(event.data as PetFields).name} was deleted.`;
    case "pet.restored":
      return `${(event.data as PetFields).name} was restored.`;
    case "pet.updated": {
      const { pet, previousAttributes } = event.data as { pet: PetFields; previousAttributes: Partial<{ name: string; categoryId: number; status: string | null }> };
      if (previousAttributes.name !== undefined) return `${previousAttributes.name} was renamed ${pet.name}.`;
      if (previousAttributes.status !== undefined) return pet.status ? `${pet.name} was marked ${pet.status}.` : `${pet.name} no longer has a status.`;
      if (previousAttributes.categoryId !== undefined) return `${pet.name} moved to category ${pet.categoryId}.`;
      return `${pet.name} was changed.`;
    }
    default:
      return undefined;
  }
}
