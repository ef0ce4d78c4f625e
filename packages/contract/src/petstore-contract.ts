import { initContract } from "@ts-rest/core";
import type { RouteMetadata } from "./route-metadata.js";
import { CreatePetHeaders, ErrorBody, GetPetParams, ListPetsQuery, NewPet, Pet, Pets } from "./schemas.js";

const c = initContract();

export const API_PATH_PREFIX = "/v1";

/**
 * The interface spec's three operations, as the spec shows them (tag `pets`). Composed under `/v1` by
 * `v1Contract` (root.ts); operations beyond the spec join that root as contracts of their own tags.
 */
export const petsContract = c.router({
  listPets: {
    method: "GET",
    path: "/pets",
    query: ListPetsQuery,
    metadata: { credential: "bearer", scope: "read", tag: "pets" } satisfies RouteMetadata,
    summary: "List animals",
    description:
      "Returns animals in ascending id order, at most `limit` of them. With `status`, only animals with that status. " +
      'Extension: `after` (an id) continues a listing; a page that has more carries a `Link: <...>; rel="next"` header. ' +
      "Extension: `name` keeps only animals with a word of the name that starts with it, ignoring case and accents. " +
      "Extension: `categoryId` keeps only animals of that category; `before` (an id) gives the page just below it " +
      '(`Link` `rel="prev"`); `count=true` adds `X-Total-Count`, the number of animals matching the filters.',
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
    headers: CreatePetHeaders,
    metadata: { credential: "bearer", scope: "write", tag: "pets" } satisfies RouteMetadata,
    summary: "Add an animal",
    description:
      "Extension: an optional `Idempotency-Key` header makes the create safe to retry. Within the retention period, " +
      "the same key with the same body replays the first `201` with `Idempotent-Replayed: true`; the same key with " +
      "another body is `422`; while the first request is in flight, `409` with `Retry-After`.",
    responses: {
      201: Pet,
      400: ErrorBody,
      401: ErrorBody,
      // Extension: an issued key of scope `read` (staff access); the scope check answers it before the handler.
      403: ErrorBody,
      409: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
      422: ErrorBody,
    },
  },
  getPet: {
    method: "GET",
    path: "/pets/:petId",
    pathParams: GetPetParams,
    deprecated: true,
    metadata: {
      credential: "bearer",
      scope: "read",
      tag: "pets",
      deprecation: {
        // The release of interface 1.0.0 that flagged it.
        deprecatedAt: new Date("2026-01-01T00:00:00Z"),
        sunsetAt: new Date("2030-12-05T00:00:00Z"),
        successor: `${API_PATH_PREFIX}/pets`,
      },
    } satisfies RouteMetadata,
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
});

/**
 * A request header's name as the RFCs spell it (`idempotency-key` ->
 * `Idempotency-Key`): ts-rest keys declared headers in lower case, as Node
 * delivers them; documents and CORS lists show them spelled out.
 */
export function headerDisplayName(name: string): string {
  // The Server-Sent Events standard spells its one header with ID in capitals.
  if (name === "last-event-id") return "Last-Event-ID";
  return name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}
