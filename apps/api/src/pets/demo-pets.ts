import type { NewPet } from "@petstore/contract";
import { execute, firstRow, sql, toNumber, type SqlRunner } from "../data/sql-work.js";
import { foldName } from "./name-key.js";
import type { PetRepository } from "./pet-repository.js";

/** The names of the demo pets' category ids 1..5. */
const DEMO_CATEGORIES = ["Dogs", "Cats", "Birds", "Rabbits", "Fish"];

const NAMES = [
  "Rex",
  "Bella",
  "Milo",
  "Luna",
  "Charlie",
  "Lucy",
  "Max",
  "Daisy",
  "Oscar",
  "Coco",
  "Buddy",
  "Molly",
  "Leo",
  "Ruby",
  "Teddy",
  "Rosie",
  "Jasper",
  "Willow",
  "Finn",
  "Hazel",
  "Ziggy",
  "Pepper",
  "Olive",
  "Biscuit",
  "Mango",
  "Nala",
  "Simba",
  "Pickle",
  "Tofu",
  "Waffles",
  "Juniper",
  "Clover",
  "Sprout",
  "Maple",
  "Nugget",
  "Poppy",
];
const STATUSES = ["available", "pending", "sold", undefined] as const;

/** The demo pets a development database starts with: 36, a mix of every status and none. */
const SEED_PETS: NewPet[] = NAMES.map((name, index) => {
  const status = STATUSES[index % STATUSES.length];
  return { name, categoryId: (index % 5) + 1, ...(status ? { status } : {}) };
});

/**
 * Adds the demo pets to an empty store, and names their categories where no category is named yet; a
 * store that has any pet is left alone, so running it twice is harmless.
 */
export async function seedPets(pets: PetRepository, runner: SqlRunner): Promise<number> {
  const existing = await pets.list({ take: 1 });
  if (existing.length > 0) return 0;
  await runner.transaction(function* () {
    const named = yield* firstRow<{ n: unknown }>(sql`SELECT count(*) AS "n" FROM "Category"`);
    if (toNumber(named?.n ?? 0) > 0) return;
    const now = new Date();
    for (const [index, name] of DEMO_CATEGORIES.entries()) {
      yield* execute(
        sql`INSERT INTO "Category" ("id", "name", "nameKey", "createdAt") VALUES (${index + 1}, ${name}, ${foldName(name)}, ${now})`,
      );
    }
  });
  for (const pet of SEED_PETS) await pets.create(pet);
  return SEED_PETS.length;
}
