import type { Pet, PetStatus } from "@petstore/contract";

/**
 * A pet as both databases return it: int64 columns as `bigint` (Prisma), `number` (better-sqlite3)
 * or decimal text (node-postgres).
 */
export interface PetRow {
  id: number | bigint | string;
  name: string;
  categoryId: number | bigint | string;
  status: string | null;
}

/**
 * The one row-to-`Pet` mapping. JSON carries ids as numbers, exact below 2^53
 * (the API assigns and accepts no larger); `status` is present only when set.
 */
export function toPet(row: PetRow): Pet {
  const id = Number(row.id);
  const categoryId = Number(row.categoryId);
  return row.status === null
    ? { id, name: row.name, categoryId }
    : { id, name: row.name, categoryId, status: row.status as PetStatus };
}
