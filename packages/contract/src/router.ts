import { initContract } from "@ts-rest/core";
import { ErrorBody, GetPetParams, ListPetsQuery, NewPet, Pet, Pets } from "./schemas.js";

const c = initContract();

export const API_PATH_PREFIX = "/v1";

/** getPet is deprecated (spec, "Versioning"); these feed its response headers. */
export const GET_PET_DEPRECATION = {
  /** When the deprecation took effect: the release of interface 1.0.0 that flagged it. */
  deprecatedAt: new Date("2026-01-01T00:00:00Z"),
  sunsetAt: new Date("2030-12-05T00:00:00Z"),
  successor: `${API_PATH_PREFIX}/pets`,
} as const;

export const petstoreContract = c.router(
  {
    listPets: {
      method: "GET",
      path: "/pets",
      query: ListPetsQuery,
      summary: "List animals",
      description:
        "Returns animals in ascending id order, at most `limit` of them. With `status`, only animals with that status. " +
        "Extension: `after` (an id) continues a listing; a page that has more carries a `Link: <...>; rel=\"next\"` header.",
      responses: {
        200: Pets,
        400: ErrorBody,
        401: ErrorBody,
      },
    },
    createPet: {
      method: "POST",
      path: "/pets",
      contentType: "application/json",
      body: NewPet,
      summary: "Add an animal",
      responses: {
        201: Pet,
        400: ErrorBody,
        401: ErrorBody,
        413: ErrorBody,
        415: ErrorBody,
      },
    },
    getPet: {
      method: "GET",
      path: "/pets/:petId",
      pathParams: GetPetParams,
      deprecated: true,
      summary: "Get an animal (deprecated)",
      description:
        "Deprecated: scheduled for removal on 5 December 2030. Use `GET /pets` with the `status` filter instead.",
      responses: {
        200: Pet,
        400: ErrorBody,
        401: ErrorBody,
        404: ErrorBody,
      },
    },
  },
  {
    pathPrefix: API_PATH_PREFIX,
    strictStatusCodes: true,
    commonResponses: {
      // Produced by the transport around every operation (key check, limits, faults).
      429: ErrorBody,
      500: ErrorBody,
    },
  },
);

export type PetstoreContract = typeof petstoreContract;
