import {
  PATCH_STRING_MAX_LENGTH,
  PET_PATCH_MAX_OPERATIONS,
  PET_PATCH_PATHS,
  type PetPatch,
  type PetPatchOperation,
  type PetPatchPath,
} from "./pet-patch.js";
import {
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  MAX_ID,
  NAME_MAX_LENGTH,
  NAME_PATTERN,
  PET_STATUSES,
  type ListPetsQuery,
  type NewPet,
  type PetStatus,
} from "./schemas.js";

/**
 * A request part's parser pinned to the shape nearly every request sends: what
 * the part's schema returns from `parse` for the inputs it takes, and
 * `undefined` for every other input, which then goes to the schema. A faster
 * path, never another rule: a refusal, a message, a rarer spelling (`007`,
 * a `name` search) is always the schema's. `pinned-parsers.test.ts` holds each
 * to that against its schema with generated inputs.
 *
 * Why: the schemas are zod 3, whose `_parse` functions every schema of the
 * server shares; in the running server those calls are megamorphic and a
 * `{ petId }` took ~5 µs where a dedicated function takes well under one
 * (docs/decisions/033-operations-dispatched-once.md).
 */
export type PinnedParser<Output> = (input: unknown) => Output | undefined;

/** The request parts a pinned parser can stand in for, per operation, as the contract names them. */
export interface PinnedRequestParsers {
  pathParams?: PinnedParser<object>;
  query?: PinnedParser<object>;
  body?: PinnedParser<object>;
  headers?: PinnedParser<object>;
}

/** Decimal digits without a leading zero, at most 16 of them: exact as a JS number; MAX_ID bounds the value. */
const PLAIN_POSITIVE = /^[1-9][0-9]{0,15}$/;
/** `limit`: 1 to 3 digits without a leading zero (LIMIT_MIN..LIMIT_MAX bounds the value). */
const PLAIN_LIMIT = /^[1-9][0-9]{0,2}$/;

/** A plain object, as a router's params and a query parser's output are (zod refuses an array, a Date, a Map). */
const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** The contract's statuses, read from `PetStatus` itself: no second list to keep in step. */
const isPetStatus = (value: string): value is PetStatus => (PET_STATUSES as readonly string[]).includes(value);

/** `GetPetParams` for `{ petId: "<digits>" }`. */
export function pinnedPetIdParams(params: unknown): { petId: number } | undefined {
  if (!isPlainObject(params)) return undefined;
  const petId = params["petId"];
  if (typeof petId !== "string" || !PLAIN_POSITIVE.test(petId)) return undefined;
  const id = Number(petId);
  return id <= MAX_ID ? { petId: id } : undefined;
}

/**
 * `ListPetsQuery` for a query of `limit`, `status` and `after`, each given once as a plain value.
 * A `name` search, an unknown key, a repeated or nested value: the schema's.
 */
export function pinnedListPetsQuery(query: unknown): ListPetsQuery | undefined {
  if (!isPlainObject(query)) return undefined;
  let limit = LIMIT_DEFAULT;
  let status: PetStatus | undefined;
  let after: number | undefined;
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (typeof value !== "string") return undefined;
    if (key === "limit") {
      if (!PLAIN_LIMIT.test(value)) return undefined;
      limit = Number(value);
      if (limit < LIMIT_MIN || limit > LIMIT_MAX) return undefined;
    } else if (key === "status") {
      if (!isPetStatus(value)) return undefined;
      status = value;
    } else if (key === "after") {
      if (value === "0") after = 0;
      else if (!PLAIN_POSITIVE.test(value) || (after = Number(value)) > MAX_ID) return undefined;
    } else {
      return undefined;
    }
  }
  // The schema's key order: limit, then the optional keys that were sent.
  if (status === undefined) return after === undefined ? { limit } : { limit, after };
  return after === undefined ? { limit, status } : { limit, status, after };
}

/**
 * `NewPet` for a JSON object whose `name` is a string the name rules take (trimmed, as the schema
 * trims it), whose `categoryId` is a positive safe integer and whose `status`, when present, is one of
 * the three; other keys are dropped, as the schema strips them. Anything else: the schema's.
 */
export function pinnedNewPet(body: unknown): NewPet | undefined {
  if (!isPlainObject(body)) return undefined;
  const { name, categoryId, status } = body;
  if (typeof name !== "string" || typeof categoryId !== "number") return undefined;
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > NAME_MAX_LENGTH || !NAME_PATTERN.test(trimmed)) return undefined;
  if (!Number.isInteger(categoryId) || categoryId < 1 || categoryId > MAX_ID) return undefined;
  if (!("status" in body)) return { name: trimmed, categoryId };
  return typeof status === "string" && isPetStatus(status) ? { name: trimmed, categoryId, status } : undefined;
}

/** `CreatePetHeaders` for the request headers of a create without an `Idempotency-Key`: nothing to check. */
export function pinnedCreatePetHeaders(headers: unknown): Record<string, never> | undefined {
  return isPlainObject(headers) && !("idempotency-key" in headers) ? {} : undefined;
}

const isPatchPath = (value: unknown): value is PetPatchPath =>
  typeof value === "string" && (PET_PATCH_PATHS as readonly string[]).includes(value);

/** A patch operation's `value`: a string within the patch's bounds, a finite number, or null. */
const isPatchValue = (value: unknown): value is string | number | null =>
  value === null ||
  (typeof value === "number" && Number.isFinite(value)) ||
  (typeof value === "string" && value.length <= PATCH_STRING_MAX_LENGTH && NAME_PATTERN.test(value));

/**
 * `PetPatch` for an array of 1..10 operations, each exactly `{ op, path, value }` (`test`, `replace`, `add`)
 * or `{ op: "remove", path: "/status" }` with a value the schema takes. Anything else, an extra key
 * included: the schema's, which names what is wrong.
 */
export function pinnedPetPatch(body: unknown): PetPatch | undefined {
  if (!Array.isArray(body) || body.length < 1 || body.length > PET_PATCH_MAX_OPERATIONS) return undefined;
  const operations: PetPatchOperation[] = [];
  for (const operation of body as unknown[]) {
    if (!isPlainObject(operation) || !Object.hasOwn(operation, "op") || !Object.hasOwn(operation, "path"))
      return undefined;
    const { op, path } = operation;
    const size = Object.keys(operation).length;
    if (op === "remove") {
      if (path !== "/status" || size !== 2) return undefined;
      operations.push({ op, path });
    } else if (op === "test" || op === "replace" || op === "add") {
      const { value } = operation;
      if (!isPatchPath(path) || size !== 3 || !Object.hasOwn(operation, "value") || !isPatchValue(value))
        return undefined;
      operations.push({ op, path, value });
    } else {
      return undefined;
    }
  }
  return operations;
}

/** The pinned parsers of the pet operations: the requests the hot path serves most, and the changes beside them. */
export const petstorePinnedParsers = {
  getPet: { pathParams: pinnedPetIdParams },
  listPets: { query: pinnedListPetsQuery },
  createPet: { body: pinnedNewPet, headers: pinnedCreatePetHeaders },
  updatePet: { pathParams: pinnedPetIdParams, body: pinnedPetPatch, headers: pinnedCreatePetHeaders },
  deletePet: { pathParams: pinnedPetIdParams, headers: pinnedCreatePetHeaders },
  restorePet: { pathParams: pinnedPetIdParams, headers: pinnedCreatePetHeaders },
} as const satisfies Record<string, PinnedRequestParsers>;
