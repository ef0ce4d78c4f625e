import type { NewPet } from "@petstore/contract";
import type { PetRepository } from "./pet-repository.js";

const NAMES = [
  "Rex", "Bella", "Milo", "Luna", "Charlie", "Lucy", "Max", "Daisy", "Oscar", "Coco",
  "Buddy", "Molly", "Leo", "Ruby", "Teddy", "Rosie", "Jasper", "Willow", "Finn", "Hazel",
  "Ziggy", "Pepper", "Olive", "Biscuit", "Mango", "Nala", "Simba", "Pickle", "Tofu", "Waffles",
  "Juniper", "Clover", "Sprout", "Maple", "Nugget", "Poppy",
];
const STATUSES = ["available", "pending", "sold", undefined] as const;

/** The demo pets a development database starts with: 36, a mix of every status and none. */
const SEED_PETS: NewPet[] = NAMES.map((name, index) => {
  const status = STATUSES[index % STATUSES.length];
  return { name, categoryId: (index % 5) + 1, ...(status ? { status } : {}) };
});

/** Adds the demo pets to an empty store; a store that has any pet is left alone, so running it twice is harmless. */
export async function seedPets(pets: PetRepository): Promise<number> {
  const existing = await pets.list({ take: 1 });
  if (existing.length > 0) return 0;
  for (const pet of SEED_PETS) await pets.create(pet);
  return SEED_PETS.length;
}
