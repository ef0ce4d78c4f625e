import { v1Contract } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import { auditContext } from "../access/caller.js";
import { toErrorBody } from "../base/http-error.js";
import type { RouterOf } from "../base/contract-router.js";
import type { SqlRunner } from "../data/sql-work.js";
import type { Categories } from "./categories.js";
import { readInventory } from "./inventory.js";

const server = initServer();

const conflict = (message: string) => ({ status: 409 as const, body: toErrorBody(409, "CONFLICT", message) });

/** Categories by name (tag categories, beyond the spec). */
export function createCategoriesRouter(categories: Categories): RouterOf<typeof v1Contract.categories> {
  return server.router(v1Contract.categories, {
    listCategories: async () => ({ status: 200, body: await categories.list() }),
    createCategory: async ({ body, req, res }) => {
      const outcome = await categories.create(body, auditContext(req, res));
      return outcome.kind === "done" ? { status: 201, body: outcome.category } : conflict(outcome.message);
    },
    renameCategory: async ({ params, body, req, res }) => {
      const outcome = await categories.rename({ id: params.categoryId, name: body.name }, auditContext(req, res));
      if (outcome.kind === "not-found")
        return { status: 404, body: toErrorBody(404, "NOT_FOUND", `No category has id ${params.categoryId}.`) };
      return outcome.kind === "done" ? { status: 200, body: outcome.category } : conflict(outcome.message);
    },
  });
}

/** The store's figures (tag store, beyond the spec). */
export function createStoreRouter(runner: SqlRunner): RouterOf<typeof v1Contract.store> {
  return server.router(v1Contract.store, {
    getInventory: async () => ({ status: 200, body: await runner.read(readInventory) }),
  });
}
