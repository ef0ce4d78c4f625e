import { execute, provider, sql, type SqlWork } from "../data/sql-work.js";

/**
 * The later words of a name, as the word search reads them (docs/decisions/047-word-search.md): for each
 * word after the first, the name's key from that word on (`reginald fluffington`, `fluffington` for
 * `sir reginald fluffington`), one row each in "PetWord" (key, petId).
 *
 * PostgreSQL keeps the rows by triggers on "Pet" (migrations 0015_word_search, 0016_word_triggers_without_arrays). SQLite keeps them here, in
 * the transaction of each write: a trigger there has no split and costs a JSON array and a window sum per
 * row, measured at 25-30 us per create of a four-word name, where these statements cost 2-3 us.
 */
export function laterWordKeys(nameKey: string): string[] {
  const keys: string[] = [];
  for (let space = nameKey.indexOf(" "); space !== -1; space = nameKey.indexOf(" ", space + 1))
    keys.push(nameKey.slice(space + 1));
  return keys;
}

/**
 * On SQLite, a pet's "PetWord" rows go from those of the key `from` to those of `to` (null: none, for a
 * pet created or deleted); on PostgreSQL, nothing (its triggers did it with the write).
 */
export function* rewordPet(petId: number, from: string | null, to: string | null): SqlWork<void> {
  if ((yield* provider()) !== "sqlite") return;
  for (const key of from === null ? [] : laterWordKeys(from))
    yield* execute(sql`DELETE FROM "PetWord" WHERE "key" = ${key} AND "petId" = ${petId}`);
  for (const key of to === null ? [] : laterWordKeys(to))
    yield* execute(sql`INSERT INTO "PetWord" ("key", "petId") VALUES (${key}, ${petId})`);
}
