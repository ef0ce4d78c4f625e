import { v1Contract } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import { auditContext, callerStoreKey } from "../access/caller.js";
import { toErrorBody } from "../base/http-error.js";
import { pageWithNextLink, rowsToRead } from "../base/next-page.js";
import { createKeyedCreateService } from "./idempotent-create.js";
import type { PetRepository } from "./pet-repository.js";
import type { RouterOf } from "../base/contract-router.js";
import type { SqlRunner } from "../data/sql-work.js";
import { listWithExtensions } from "./pet-listing.js";
import { nameSearchPage } from "./name-search.js";

const server = initServer();

export interface PetsRouterOptions {
  /** How long an `Idempotency-Key` is remembered. */
  idempotencyTtlMs: number;
}

const locationOf = (pet: { id: number }) => v1Contract.pets.getPet.path.replace(":petId", String(pet.id));

/** The spec's pets contract: listPets, createPet, getPet. */
export function createPetsRouter(
  pets: PetRepository,
  sql: SqlRunner,
  { idempotencyTtlMs }: PetsRouterOptions,
): RouterOf<typeof v1Contract.pets> {
  const keyedCreates = createKeyedCreateService({ pets, ttlMs: idempotencyTtlMs });
  return server.router(v1Contract.pets, {
    listPets: async ({ query, req, res }) => {
      // The extensions beyond the spec's shapes (a category, the page below an id, the total) take their own path.
      if (query.categoryId !== undefined || query.before !== undefined || query.count === "true") {
        return { status: 200, body: await listWithExtensions(sql, query, req, res) };
      }
      const page = { take: rowsToRead(query.limit), status: query.status, after: query.after };
      const rows =
        query.name !== undefined
          ? await sql.read(() => nameSearchPage({ ...page, name: query.name! }))
          : await pets.list(page);
      return {
        status: 200,
        body: pageWithNextLink(rows, query.limit, { status: query.status, name: query.name }, req, res),
      };
    },

    createPet: async ({ body, headers, req, res }) => {
      const key = headers["idempotency-key"];
      if (key === undefined) {
        const pet = await pets.create(body, auditContext(req, res));
        res.setHeader("Location", locationOf(pet));
        return { status: 201, body: pet };
      }
      const outcome = await keyedCreates.create({
        scope: callerStoreKey(res),
        key,
        pet: body,
        locationOf,
        audit: auditContext(req, res),
      });
      keyedCreates
        .sweepIfDue()
        ?.catch((error: unknown) => req.log.warn({ err: error }, "idempotency record sweep failed"));
      switch (outcome.kind) {
        case "created":
        case "replayed":
          res.setHeader("Location", outcome.location);
          if (outcome.kind === "replayed") res.setHeader("Idempotent-Replayed", "true");
          return { status: 201, body: outcome.pet };
        case "reused":
          return {
            status: 422,
            body: toErrorBody(
              422,
              "IDEMPOTENCY_KEY_REUSED",
              "This Idempotency-Key was already used with another body; send a new key for a new pet.",
            ),
          };
        case "in-flight":
          res.setHeader("Retry-After", "1");
          return {
            status: 409,
            body: toErrorBody(
              409,
              "IDEMPOTENCY_KEY_IN_USE",
              "A request with this Idempotency-Key is still being processed; retry after 1 second.",
            ),
          };
      }
    },

    getPet: async ({ params }) => {
      const pet = await pets.findById(params.petId);
      if (!pet) return { status: 404, body: toErrorBody(404, "NOT_FOUND", `No pet has id ${params.petId}.`) };
      return { status: 200, body: pet };
    },
  });
}
