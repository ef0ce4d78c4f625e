import { initContract } from "@ts-rest/core";
import type { RouteMetadata } from "./route-metadata.js";
import { ErrorBody } from "./schemas.js";
import { Categories, Category, CategoryParams, CategoryRename, Inventory, NewCategory } from "./store-schemas.js";

const c = initContract();

/**
 * Categories by name, beyond the spec (which shows a category only as `categoryId`): tag `categories`,
 * `x-stability: beta`, composed under `/v1` by `v1Contract`. Animals keep `categoryId` exactly as the
 * spec says: `createPet` takes any id in range, named or not.
 */
export const categoriesContract = c.router({
  listCategories: {
    method: "GET",
    path: "/categories",
    metadata: { credential: "bearer", scope: "read", tag: "categories", stability: "beta" } satisfies RouteMetadata,
    summary: "List categories",
    description: "Beyond the spec: every category the store has named (at most 1,000), by name.",
    responses: { 200: Categories, 401: ErrorBody },
  },
  createCategory: {
    method: "POST",
    path: "/categories",
    contentType: "application/json",
    body: NewCategory,
    metadata: { credential: "bearer", scope: "admin", tag: "categories", stability: "beta" } satisfies RouteMetadata,
    summary: "Name a category",
    description:
      "Beyond the spec: names a category. With `id`, names an id the store's animals may already carry; without it, " +
      "the category takes the next id above every category's and every animal's `categoryId`. A name already taken " +
      "(ignoring case and accents), an id already named, or a 1,001st category: `409`.",
    responses: {
      201: Category,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      409: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
  renameCategory: {
    method: "POST",
    path: "/categories/:categoryId/rename",
    pathParams: CategoryParams,
    contentType: "application/json",
    body: CategoryRename,
    metadata: { credential: "bearer", scope: "admin", tag: "categories", stability: "beta" } satisfies RouteMetadata,
    summary: "Rename a category",
    description:
      "Beyond the spec: gives a category another name. A name another category has (ignoring case and accents): `409`.",
    responses: {
      200: Category,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      409: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
});

/** The store's figures, beyond the spec (which names store operations without showing them): tag `store`. */
export const storeContract = c.router({
  getInventory: {
    method: "GET",
    path: "/store/inventory",
    metadata: { credential: "bearer", scope: "read", tag: "store", stability: "beta" } satisfies RouteMetadata,
    summary: "Count the animals",
    description:
      "Beyond the spec: how many animals the store has, by status and by category, exact at the moment it is read " +
      "(deleted animals are not counted). Kept as the animals change, so it is read without counting them.",
    responses: { 200: Inventory, 401: ErrorBody },
  },
});
