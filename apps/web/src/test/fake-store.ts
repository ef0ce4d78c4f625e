import type { Category, Inventory } from "@petstore/contract";
import { errorResponse, jsonResponse } from "./responses.js";

type ApiHandler = (request: Request) => Response | Promise<Response>;

/** The development data's categories (ids 1-5), as listCategories answers them: by name. */
export const DEMO_CATEGORIES: Category[] = [
  { id: 3, name: "Birds" },
  { id: 2, name: "Cats" },
  { id: 1, name: "Dogs" },
  { id: 5, name: "Fish" },
  { id: 4, name: "Rabbits" },
];

const NO_PETS = { available: 0, pending: 0, sold: 0, none: 0 };

/** A store without pets, as getInventory answers it. */
export const EMPTY_INVENTORY: Inventory = {
  total: 0,
  byStatus: NO_PETS,
  byCategory: [],
  other: { total: 0, byStatus: NO_PETS },
};

/**
 * Answers listCategories with `categories` and getInventory with `inventory` (each may be a handler of its
 * own, to fail or wait), and hands every other request to `handler`: the pets' own fake API.
 */
export function withCategories(
  handler: ApiHandler,
  {
    categories = DEMO_CATEGORIES,
    inventory = EMPTY_INVENTORY,
  }: { categories?: Category[] | ApiHandler; inventory?: Inventory | ApiHandler } = {},
): ApiHandler {
  return (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === "GET" && pathname === "/v1/categories") {
      return typeof categories === "function" ? categories(request) : jsonResponse(200, categories);
    }
    if (request.method === "GET" && pathname === "/v1/store/inventory") {
      return typeof inventory === "function" ? inventory(request) : jsonResponse(200, inventory);
    }
    return handler(request);
  };
}

/** The listPets requests among `requests` (the pages also ask for categories and figures). */
export function petListRequests(requests: readonly Request[]): Request[] {
  return requests.filter((request) => request.method === "GET" && new URL(request.url).pathname === "/v1/pets");
}

/**
 * The categories API over a store in memory, answering as the real one does: listCategories by name,
 * createCategory (the next id above every category's without `id`; `409` for a name taken, ignoring case
 * and accents, or an id named already), renameCategory (`404`, `409`), and getInventory with `inventory`.
 */
export function fakeCategoriesApi(initial: Category[] = DEMO_CATEGORIES, inventory: Inventory = EMPTY_INVENTORY) {
  const categories = new Map(initial.map((category) => [category.id, { ...category }]));
  const fold = (name: string) => name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  const holder = (name: string, except?: number) =>
    [...categories.values()].find((category) => fold(category.name) === fold(name) && category.id !== except);

  const handler = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const rename = /^\/v1\/categories\/(\d+)\/rename$/.exec(pathname);
    if (request.method === "GET" && pathname === "/v1/categories") {
      return jsonResponse(
        200,
        [...categories.values()].sort((a, b) => fold(a.name).localeCompare(fold(b.name))),
      );
    }
    if (request.method === "GET" && pathname === "/v1/store/inventory") return jsonResponse(200, inventory);
    if (request.method === "POST" && pathname === "/v1/categories") {
      const body = (await request.json()) as { name: string; id?: number };
      const taken = holder(body.name);
      if (taken) return errorResponse(409, "CONFLICT", `A category is named ${taken.name} already.`);
      const named = body.id !== undefined ? categories.get(body.id) : undefined;
      if (named)
        return errorResponse(
          409,
          "CONFLICT",
          `Category ${named.id} is named ${named.name} already; rename it instead.`,
        );
      const id = body.id ?? Math.max(0, ...categories.keys()) + 1;
      categories.set(id, { id, name: body.name });
      return jsonResponse(201, { id, name: body.name });
    }
    if (request.method === "POST" && rename) {
      const category = categories.get(Number(rename[1]));
      if (!category) return errorResponse(404, "NOT_FOUND", `Category ${rename[1]} not found.`);
      const { name } = (await request.json()) as { name: string };
      const taken = holder(name, category.id);
      if (taken) return errorResponse(409, "CONFLICT", `A category is named ${taken.name} already.`);
      category.name = name;
      return jsonResponse(200, category);
    }
    return errorResponse(404, "NOT_FOUND", `No route ${request.method} ${pathname}.`);
  };
  return { categories, handler };
}
