import type { Inventory, PetStatus, StatusCounts } from "@petstore/contract";
import { unnamedCategoryLabel } from "../categories/category-names.js";
import { petsListPath } from "../navigation/app-paths.js";

/** One status column of the figures: its heading, its word in a sentence, and the list's filter (none for no status). */
export interface StatusColumn {
  key: keyof StatusCounts;
  heading: string;
  /** As the list's status badges say it: `available`, `no status`. */
  word: string;
  /** The list's `status` filter; the list has none for pets without a status. */
  status: PetStatus | undefined;
}

export const STATUS_COLUMNS: readonly StatusColumn[] = [
  { key: "available", heading: "Available", word: "available", status: "available" },
  { key: "pending", heading: "Pending", word: "pending", status: "pending" },
  { key: "sold", heading: "Sold", word: "sold", status: "sold" },
  { key: "none", heading: "No status", word: "no status", status: undefined },
];

/** One row of the table by category: a category id (named or not), or the ids `other` sums. */
export interface CategoryRow {
  key: string;
  label: string;
  /** The list's `categoryId` filter; undefined for `Other`, which no filter selects. */
  categoryId: number | undefined;
  total: number;
  byStatus: StatusCounts;
}

/**
 * The inventory by category, in the API's order (every named category and the largest ids without a name),
 * then `Other` for the ids it sums, when they hold any pet.
 */
export function categoryRows(inventory: Inventory): CategoryRow[] {
  const rows: CategoryRow[] = inventory.byCategory.map((category) => ({
    key: String(category.categoryId),
    label: category.name ?? unnamedCategoryLabel(category.categoryId),
    categoryId: category.categoryId,
    total: category.total,
    byStatus: category.byStatus,
  }));
  if (inventory.other.total > 0)
    rows.push({
      key: "other",
      label: "Other",
      categoryId: undefined,
      total: inventory.other.total,
      byStatus: inventory.other.byStatus,
    });
  return rows;
}

/**
 * Where a count leads: the pets list filtered by its category and status. Undefined for a count no list
 * filter selects: pets without a status, and the ids `Other` sums.
 */
export function countPath(
  row: Pick<CategoryRow, "categoryId" | "key"> | undefined,
  column: StatusColumn | undefined,
): string | undefined {
  if (column && column.status === undefined) return undefined;
  if (row && row.categoryId === undefined) return undefined;
  return petsListPath({ categoryId: row?.categoryId, status: column?.status });
}
