import { petstoreContract } from "@petstore/contract";
import { initServer, type createExpressEndpoints } from "@ts-rest/express";
import { toErrorBody } from "../errors.js";
import type { PetRepository } from "./pet-repository.js";

const server = initServer();

/** What createExpressEndpoints takes for the contract. */
type PetstoreRouter = Parameters<typeof createExpressEndpoints<typeof petstoreContract>>[1];

export function createPetsRouter(pets: PetRepository): PetstoreRouter {
  return server.router(petstoreContract, {
    listPets: async ({ query, req, res }) => {
      // One row more than asked tells whether a next page exists without a count query.
      const rows = await pets.list({ take: query.limit + 1, status: query.status, after: query.after });
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      if (rows.length > query.limit && last) {
        const next = new URLSearchParams({ limit: String(query.limit) });
        if (query.status) next.set("status", query.status);
        next.set("after", String(last.id));
        res.setHeader("Link", `<${req.baseUrl}${req.path}?${next.toString()}>; rel="next"`);
      }
      return { status: 200, body: page };
    },

    createPet: async ({ body, res }) => {
      const pet = await pets.create(body);
      res.setHeader("Location", `${petstoreContract.getPet.path.replace(":petId", String(pet.id))}`);
      return { status: 201, body: pet };
    },

    getPet: async ({ params }) => {
      const pet = await pets.findById(params.petId);
      if (!pet) return { status: 404, body: toErrorBody(404, "NOT_FOUND", `No pet has id ${params.petId}.`) };
      return { status: 200, body: pet };
    },
  });
}
