import { petstoreContract } from "@petstore/contract";
import { initServer, type createExpressEndpoints } from "@ts-rest/express";
import { auditContext, callerStoreKey } from "../access/caller.js";
import { toErrorBody } from "../base/http-error.js";
import { pageWithNextLink, rowsToRead } from "../base/next-page.js";
import { createKeyedCreateService } from "./idempotent-create.js";
import type { PetRepository } from "./pet-repository.js";

const server = initServer();

/** What createExpressEndpoints takes for the contract. */
type PetstoreRouter = Parameters<typeof createExpressEndpoints<typeof petstoreContract>>[1];

export interface PetsRouterOptions {
  /** How long an `Idempotency-Key` is remembered. */
  idempotencyTtlMs: number;
}

const locationOf = (pet: { id: number }) => petstoreContract.getPet.path.replace(":petId", String(pet.id));

export function createPetsRouter(pets: PetRepository, { idempotencyTtlMs }: PetsRouterOptions): PetstoreRouter {
  const keyedCreates = createKeyedCreateService({ pets, ttlMs: idempotencyTtlMs });
  return server.router(petstoreContract, {
    listPets: async ({ query, req, res }) => {
      const rows = await pets.list({ take: rowsToRead(query.limit), status: query.status, after: query.after, name: query.name });
      return { status: 200, body: pageWithNextLink(rows, query.limit, { status: query.status, name: query.name }, req, res) };
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
      keyedCreates.sweepIfDue()?.catch((error: unknown) => req.log.warn({ err: error }, "idempotency record sweep failed"));
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
