import { initContract } from "@ts-rest/core";
import type { RouteMetadata } from "./route-metadata.js";
import { CreatePetHeaders, ErrorBody, GetPetParams, Pet } from "./schemas.js";
import { DeletedPets, PetChanges, PetPageQuery, PetPatch } from "./pet-patch.js";

const c = initContract();

/** The media type of a JSON Patch (RFC 6902); `updatePet` takes it and `application/json` alike. */
export const JSON_PATCH_MEDIA_TYPE = "application/json-patch+json";

/**
 * Pets that change, beyond the spec (whose transitions are "not shown"): correct, reserve, sell, delete
 * and restore a pet, and read its history. Tag `pet-changes`, `x-stability: beta`; composed under `/v1`
 * by `v1Contract`. The spec's three operations (tag `pets`) answer exactly as before.
 */
export const petChangesContract = c.router({
  updatePet: {
    method: "PATCH",
    path: "/pets/:petId",
    pathParams: GetPetParams,
    contentType: "application/json",
    body: PetPatch,
    headers: CreatePetHeaders,
    metadata: {
      credential: "bearer",
      scope: "write",
      tag: "pet-changes",
      stability: "beta",
      alsoAccepts: [JSON_PATCH_MEDIA_TYPE],
    } satisfies RouteMetadata,
    summary: "Change an animal",
    description:
      "Beyond the spec: applies a JSON Patch (RFC 6902) to the animal: `test`, `replace` and `add` on `/name`, `/categoryId` " +
      "and `/status`, `remove` on `/status` (on `/status`, `null` means no status). The operations apply in order, in one " +
      "transaction: a failed `test` is `409` and changes nothing, so a client that tests what it read never overwrites " +
      "someone else's change. Status moves freely among `available`, `pending` and none, and to `sold`; out of `sold` " +
      "only with scope `admin`. An optional `Idempotency-Key` makes it safe to retry.",
    responses: {
      200: Pet,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      409: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
      422: ErrorBody,
    },
  },
  deletePet: {
    method: "DELETE",
    path: "/pets/:petId",
    pathParams: GetPetParams,
    body: c.noBody(),
    headers: CreatePetHeaders,
    metadata: { credential: "bearer", scope: "write", tag: "pet-changes", stability: "beta" } satisfies RouteMetadata,
    summary: "Delete an animal",
    description:
      "Beyond the spec: the animal leaves every listing at once and `getPet` answers `404`; its id is never given again. " +
      "It can be restored for 30 days (`restorePet`), then it is purged for good; its history stays. " +
      "An optional `Idempotency-Key` makes it safe to retry.",
    responses: {
      204: c.noBody(),
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      409: ErrorBody,
      422: ErrorBody,
    },
  },
  listDeletedPets: {
    method: "GET",
    path: "/deleted-pets",
    query: PetPageQuery,
    metadata: { credential: "bearer", scope: "read", tag: "pet-changes", stability: "beta" } satisfies RouteMetadata,
    summary: "List deleted animals",
    description:
      "Beyond the spec: the animals deleted and not yet purged, the latest deletion first, with when each is purged. " +
      'A page that may have more carries a `Link: <...>; rel="next"` header.',
    responses: { 200: DeletedPets, 400: ErrorBody, 401: ErrorBody },
  },
  restorePet: {
    method: "POST",
    path: "/deleted-pets/:petId/restore",
    pathParams: GetPetParams,
    body: c.noBody(),
    headers: CreatePetHeaders,
    metadata: { credential: "bearer", scope: "write", tag: "pet-changes", stability: "beta" } satisfies RouteMetadata,
    summary: "Restore a deleted animal",
    description:
      "Beyond the spec: brings a deleted animal back, with its id and fields. An optional `Idempotency-Key` makes it safe to retry.",
    responses: {
      200: Pet,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      409: ErrorBody,
      422: ErrorBody,
    },
  },
  listPetHistory: {
    method: "GET",
    path: "/pets/:petId/history",
    pathParams: GetPetParams,
    query: PetPageQuery,
    metadata: { credential: "bearer", scope: "read", tag: "pet-changes", stability: "beta" } satisfies RouteMetadata,
    summary: "An animal's history",
    description:
      "Beyond the spec: what was done to the animal (a deleted one's too), newest first: when, by whom, and each field's " +
      'value before and after. A page that may have more carries a `Link: <...>; rel="next"` header.',
    responses: { 200: PetChanges, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  },
});
