import { z } from "zod";
import { CategoryId, decimalInteger, MAX_ID, NameText, positiveSafeInteger } from "./schemas.js";

/**
 * The store at a glance (beyond the spec, which shows a category only as `categoryId` and names the
 * store's operations without showing them): categories with names, and the inventory of pets by status
 * and category. docs/decisions/046-the-store-at-a-glance.md.
 */

/** A store names at most this many categories: listCategories answers them all, and the 1,001st is refused. */
export const CATEGORIES_MAX = 1000;
/** The inventory lists every named category and this many of the largest ids without a name; `other` sums the rest. */
export const INVENTORY_UNNAMED_MAX = 100;

export const CategoryName = NameText.describe(
  "The category's name: unique in the store, ignoring case and accents (`Dogs` and `dögs` are one name).",
);

export const Category = z
  .object({
    id: CategoryId.describe("The category's id: the `categoryId` its animals carry."),
    name: CategoryName,
  })
  .describe("A category of animals, with the name staff know it by.");
export type Category = z.infer<typeof Category>;

export const Categories = z.array(Category).max(CATEGORIES_MAX).describe("Every category of the store, by name.");

/** createCategory's body: a name, and optionally the id pets already carry. */
export const NewCategory = z
  .object({
    name: CategoryName,
    id: CategoryId.optional().describe(
      "The id to name (one the store's animals already carry). Absent: the next id above every category's and every animal's `categoryId`.",
    ),
  })
  .strip()
  .describe("Request body for creating a category.");
export type NewCategory = z.infer<typeof NewCategory>;

export const CategoryRename = z
  .object({ name: CategoryName })
  .strip()
  .describe("Request body for renaming a category.");
export type CategoryRename = z.infer<typeof CategoryRename>;

export const CategoryParams = z.object({
  categoryId: decimalInteger("categoryId", positiveSafeInteger("categoryId")),
});

const count = (what: string) => z.number().int().min(0).max(MAX_ID).describe(what);

/** Pets by status; `none`: those without a status. */
export const StatusCounts = z
  .object({
    available: count("Animals available."),
    pending: count("Animals pending."),
    sold: count("Animals sold."),
    none: count("Animals without a status."),
  })
  .describe("Animals by status; `none` counts those without one.");
export type StatusCounts = z.infer<typeof StatusCounts>;

export const CountedGroup = z
  .object({ total: count("Animals in all."), byStatus: StatusCounts })
  .describe("A number of animals, in all and by status.");
export type CountedGroup = z.infer<typeof CountedGroup>;

export const InventoryCategory = z
  .object({
    categoryId: CategoryId,
    // null rides on the string: OpenAPI 3.0 takes `nullable` beside a `type`.
    name: CategoryName.nullable().describe("The category's name; null when the id has no category record."),
    total: count("Animals in the category."),
    byStatus: StatusCounts,
  })
  .describe("The animals of one category id.");
export type InventoryCategory = z.infer<typeof InventoryCategory>;

export const Inventory = z
  .object({
    total: count("Animals in the store (deleted ones are not counted)."),
    byStatus: StatusCounts,
    byCategory: z
      .array(InventoryCategory)
      .max(CATEGORIES_MAX + INVENTORY_UNNAMED_MAX)
      .describe(
        `Every named category, and the ${INVENTORY_UNNAMED_MAX} largest ids without a name, by total (largest first), then id.`,
      ),
    other: CountedGroup.describe("The animals of the ids without a name that `byCategory` leaves out."),
  })
  .describe("How many animals the store has, by status and by category: exact at the moment it is read.");
export type Inventory = z.infer<typeof Inventory>;
