import {
  INVENTORY_UNNAMED_MAX,
  type CountedGroup,
  type Inventory,
  type InventoryCategory,
  type StatusCounts,
} from "@petstore/contract";
import { rows, sql, toNumber, type SqlWork } from "../data/sql-work.js";
import { countRows } from "../pets/pet-counts.js";

/**
 * getInventory (beyond the spec; docs/decisions/046-the-store-at-a-glance.md): the store's pets by status
 * and category, summed from the counts triggers on "Pet" keep in the transaction of every write
 * (pet-counts.ts). It never reads the pets: a row per category and status (on PostgreSQL, plus the
 * deltas of the last second), whatever the number of pets.
 */

const noPets = (): StatusCounts => ({ available: 0, pending: 0, sold: 0, none: 0 });
const statusKey = (status: string): keyof StatusCounts => (status === "" ? "none" : (status as keyof StatusCounts));

interface CountRow {
  categoryId: unknown;
  status: string;
  n: unknown;
}

/** Orders lines by total, largest first, then by id. */
const largestFirst = (a: InventoryCategory, b: InventoryCategory) => b.total - a.total || a.categoryId - b.categoryId;

export function* readInventory(): SqlWork<Inventory> {
  const counted = yield* countRows();
  const counts = yield* rows<CountRow>(
    sql`SELECT "categoryId", "status", CAST(sum("count") AS BIGINT) AS "n" FROM ${counted} GROUP BY "categoryId", "status" HAVING sum("count") <> 0`,
  );
  const named = yield* rows<{ id: unknown; name: string }>(sql`SELECT "id", "name" FROM "Category"`);
  const lines = new Map<number, InventoryCategory>();
  for (const category of named) {
    const id = toNumber(category.id);
    lines.set(id, { categoryId: id, name: category.name, total: 0, byStatus: noPets() });
  }
  const byStatus = noPets();
  let total = 0;
  for (const row of counts) {
    const id = toNumber(row.categoryId);
    const n = toNumber(row.n);
    const key = statusKey(row.status);
    let line = lines.get(id);
    if (!line) lines.set(id, (line = { categoryId: id, name: null, total: 0, byStatus: noPets() }));
    line.byStatus[key] += n;
    line.total += n;
    byStatus[key] += n;
    total += n;
  }
  const all = [...lines.values()];
  const unnamed = all.filter((line) => line.name === null).sort(largestFirst);
  const listed = [...all.filter((line) => line.name !== null), ...unnamed.slice(0, INVENTORY_UNNAMED_MAX)].sort(
    largestFirst,
  );
  const other: CountedGroup = { total: 0, byStatus: noPets() };
  for (const line of unnamed.slice(INVENTORY_UNNAMED_MAX)) {
    other.total += line.total;
    for (const key of Object.keys(other.byStatus) as Array<keyof StatusCounts>)
      other.byStatus[key] += line.byStatus[key];
  }
  return { total, byStatus, byCategory: listed, other };
}
