import type { Category } from "@petstore/contract";
import { useMemo } from "react";
import { categoryQueryKeys, usePetstoreClient } from "../api/petstore-client.js";

/** How a category id without a name (no category record) is shown: `Category 7`. */
export function unnamedCategoryLabel(categoryId: number): string {
  return `Category ${categoryId}`;
}

/** The names of the store's categories by id. */
export type CategoryNames = ReadonlyMap<number, string>;

export function categoryNamesOf(categories: readonly Category[]): CategoryNames {
  return new Map(categories.map((category) => [category.id, category.name]));
}

/** A category id as staff know it: its name, or `Category <id>` when no category names it (or names are not known). */
export function categoryLabel(names: CategoryNames | undefined, categoryId: number): string {
  return names?.get(categoryId) ?? unnamedCategoryLabel(categoryId);
}

/**
 * The store's categories (listCategories: every one, by name), shared by every page that shows or picks
 * one. `categories` and `names` are undefined until they are read, or when they could not be: pages then
 * show ids (`Category 7`) and forms the `Category ID` field alone.
 */
export function useCategories() {
  const petstore = usePetstoreClient();
  const query = petstore.categories.listCategories.useQuery({ queryKey: categoryQueryKeys.all });
  const categories = query.data?.body;
  const names = useMemo(() => (categories ? categoryNamesOf(categories) : undefined), [categories]);
  return { query, categories, names, label: (categoryId: number) => categoryLabel(names, categoryId) };
}
