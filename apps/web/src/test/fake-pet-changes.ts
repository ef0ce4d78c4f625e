import type { Category, DeletedPet, Pet, PetChange, PetPatch, PetStatus } from "@petstore/contract";
import { errorResponse, jsonResponse } from "./responses.js";

const PURGE_AFTER_MS = 30 * 24 * 60 * 60_000;

export interface FakePetChangesOptions {
  /** Who the API records as making each change. */
  by?: string;
  /** Whether the caller may move a pet out of sold (the API lets scope admin only). */
  mayReturnSold?: boolean;
  /** Steps in before a request is answered, e.g. to answer a 503 or change a pet behind the app's back. */
  before?: (request: Request) => Response | undefined;
  /** The categories listCategories answers: none named unless told. */
  categories?: Category[];
}

type Field = "name" | "categoryId" | "status";

function valueOf(pet: Pet, field: Field): string | number | null {
  return field === "status" ? (pet.status ?? null) : pet[field];
}

/**
 * The pets API with the changes beyond the spec, over a store in memory, answering as the real one does:
 * listPets by id (`after` or `before`, `limit`, `categoryId`, and `X-Total-Count` for `count=true`), listCategories, updatePet (JSON Patch: a failed `test` is a 409 and changes nothing),
 * deletePet, listDeletedPets, restorePet and listPetHistory (newest first). Each change is recorded in
 * the pet's history.
 */
export function fakePetChanges(
  initial: Pet[],
  { by = "Test key", mayReturnSold = true, before, categories = [] }: FakePetChangesOptions = {},
) {
  const pets = new Map(initial.map((pet) => [pet.id, { ...pet }]));
  const deleted = new Map<number, DeletedPet>();
  const history = new Map<number, PetChange[]>();
  let clock = Date.parse("2026-11-28T09:00:00.000Z");
  const now = () => new Date((clock += 60_000)).toISOString();

  const record = (petId: number, action: PetChange["action"], changes: PetChange["changes"] = []) => {
    history.set(petId, [{ at: now(), action, by: { kind: "key", name: by }, changes }, ...(history.get(petId) ?? [])]);
  };

  /** Changes a pet behind the app's back, as someone else would. */
  const changeBehind = (petId: number, changes: Partial<Pick<Pet, Field>>) => {
    const pet = pets.get(petId);
    if (!pet) throw new Error(`no pet ${petId}`);
    pets.set(petId, { ...pet, ...changes });
  };

  const applyPatch = (pet: Pet, patch: PetPatch): Response => {
    const next: Pet = { ...pet };
    const changes: PetChange["changes"] = [];
    for (const operation of patch) {
      const field = operation.path.slice(1) as Field;
      if (operation.op === "test") {
        const actual = valueOf(next, field);
        if (actual !== operation.value) {
          return errorResponse(409, "CONFLICT", `${field} is ${actual ?? "none"}, not ${operation.value ?? "none"}.`);
        }
        continue;
      }
      const value = operation.op === "remove" ? null : operation.value;
      if (field === "status") {
        if (next.status === "sold" && value !== "sold" && !mayReturnSold) {
          return errorResponse(403, "FORBIDDEN", "Only an admin can return a sold pet; this key has scope write.");
        }
        if (value === null) delete next.status;
        else next.status = value as PetStatus;
      } else if (field === "name") next.name = String(value);
      else next.categoryId = Number(value);
    }
    for (const field of ["name", "categoryId", "status"] as const) {
      const from = valueOf(pet, field);
      const to = valueOf(next, field);
      if (from !== to) changes.push({ field, from, to });
    }
    pets.set(pet.id, next);
    if (changes.length > 0) record(pet.id, "pet.updated", changes);
    return jsonResponse(200, next);
  };

  const handler = async (request: Request): Promise<Response> => {
    const planned = before?.(request);
    if (planned) return planned;
    const url = new URL(request.url);
    const path = url.pathname;
    const petPath = /^\/v1\/pets\/(\d+)$/.exec(path);
    const historyPath = /^\/v1\/pets\/(\d+)\/history$/.exec(path);
    const restorePath = /^\/v1\/deleted-pets\/(\d+)\/restore$/.exec(path);

    if (request.method === "GET" && path === "/v1/pets") {
      const after = Number(url.searchParams.get("after") ?? 0);
      const before = url.searchParams.get("before");
      const categoryId = url.searchParams.get("categoryId");
      const limit = Number(url.searchParams.get("limit") ?? 20);
      const matching = [...pets.values()]
        .filter((pet) => categoryId === null || pet.categoryId === Number(categoryId))
        .sort((a, b) => a.id - b.id);
      const page =
        before === null
          ? matching.filter((pet) => pet.id > after).slice(0, limit)
          : matching.filter((pet) => pet.id < Number(before)).slice(-limit);
      return jsonResponse(
        200,
        page,
        url.searchParams.get("count") === "true" ? { "X-Total-Count": String(matching.length) } : {},
      );
    }
    if (request.method === "GET" && path === "/v1/categories") {
      return jsonResponse(200, categories);
    }
    if (request.method === "PATCH" && petPath) {
      const pet = pets.get(Number(petPath[1]));
      if (!pet) return errorResponse(404, "NOT_FOUND", `Pet ${petPath[1]} not found.`);
      return applyPatch(pet, (await request.json()) as PetPatch);
    }
    if (request.method === "DELETE" && petPath) {
      const pet = pets.get(Number(petPath[1]));
      if (!pet) return errorResponse(404, "NOT_FOUND", `Pet ${petPath[1]} not found.`);
      pets.delete(pet.id);
      const deletedAt = now();
      deleted.set(pet.id, {
        pet,
        deletedAt,
        deletedBy: by,
        purgeAt: new Date(Date.parse(deletedAt) + PURGE_AFTER_MS).toISOString(),
      });
      record(pet.id, "pet.deleted");
      return new Response(null, { status: 204 });
    }
    if (request.method === "GET" && path === "/v1/deleted-pets") {
      return jsonResponse(200, [...deleted.values()].reverse());
    }
    if (request.method === "POST" && restorePath) {
      const gone = deleted.get(Number(restorePath[1]));
      if (!gone) return errorResponse(404, "NOT_FOUND", `Pet ${restorePath[1]} is not deleted.`);
      deleted.delete(gone.pet.id);
      pets.set(gone.pet.id, gone.pet);
      record(gone.pet.id, "pet.restored");
      return jsonResponse(200, gone.pet);
    }
    if (request.method === "GET" && historyPath) {
      return jsonResponse(200, history.get(Number(historyPath[1])) ?? []);
    }
    return errorResponse(404, "NOT_FOUND", `No route ${request.method} ${path}.`);
  };

  return { pets, deleted, history, handler, changeBehind, record };
}

/** The requests that changed something (PATCH, DELETE, POST), with their bodies and Idempotency-Keys. */
export async function changeRequests(requests: Request[]) {
  return Promise.all(
    requests
      .filter((request) => request.method !== "GET")
      .map(async (request) => ({
        method: request.method,
        path: new URL(request.url).pathname,
        key: request.headers.get("idempotency-key"),
        body: request.method === "PATCH" ? ((await request.clone().json()) as unknown) : undefined,
      })),
  );
}
