import { GET_PET_DEPRECATION, petstoreContract } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import type { RequestHandler } from "express";
import { toErrorBody } from "../errors.js";
import type { PetRepository } from "./pet-repository.js";

const server = initServer();

export function createPetsRouter(pets: PetRepository) {
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

const deprecationHeaders = {
  Deprecation: `@${Math.floor(GET_PET_DEPRECATION.deprecatedAt.getTime() / 1000)}`,
  Sunset: GET_PET_DEPRECATION.sunsetAt.toUTCString(),
  Link: `<${GET_PET_DEPRECATION.successor}>; rel="successor-version"`,
};

/** Mounted before the key check so that every getPet response, 401 included, carries them. */
export const markGetPetDeprecated: RequestHandler = (_req, res, next) => {
  res.set(deprecationHeaders);
  next();
};
