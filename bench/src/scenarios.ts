/**
 * The scenarios, in the order they run: the writes last, createPet (it grows the table) then updatePet
 * (it renames seeded pets, which the lists and name searches read as seeded).
 */
export const SCENARIOS = [
  "listPets",
  "listPets?status=available&limit=100",
  "getPet",
  "listPets?name=rare",
  "listPets?name=shared",
  "listPets?name=word",
  "getInventory",
  "createPet",
  "updatePet",
] as const;
export type Scenario = (typeof SCENARIOS)[number];

/**
 * The scenarios that write: each request waits for its commit (an fsync on SQLite), so a server's core
 * is not full under them, and a key slice (load.ts, keySliceMs) must be longer to hold many requests.
 */
export const isWriteScenario = (scenario: Scenario): scenario is "createPet" | "updatePet" =>
  scenario === "createPet" || scenario === "updatePet";

/**
 * The API's own extensions, which the Express floors and the baseline do not implement: run against
 * the API only. Name searches (seed.ts: `pet 4242` is a rare prefix, `bella` a first word a tenth of the
 * pets share, `1` the start of a later word a ninth of them have), compared with its plain `listPets` page; and updatePet (beyond the spec: a JSON Patch),
 * compared with its createPet (report.ts, `ratio-update`).
 */
export const API_ONLY_SCENARIOS: ReadonlySet<Scenario> = new Set([
  "listPets?name=rare",
  "listPets?name=shared",
  "listPets?name=word",
  "getInventory",
  "updatePet",
]);

/**
 * The scenarios a build of the API may not serve: updatePet came after the builds the bench is run
 * against as BENCH_API_MAIN (757ba17 has no PATCH route for /v1/pets/{petId}: its method-not-allowed
 * layer answers 405). Before loading one, the bench asks
 * each target once (answers.ts, `servesScenario`); a target that answers 404 or 405 is left out of it,
 * its figures "n/a" in the report, and the other scenarios compare as before.
 */
export const PROBED_SCENARIOS: ReadonlySet<Scenario> = new Set(["getInventory", "updatePet"]);

/**
 * updatePet's patch of pet `id` (the bench's wrk script builds the same body in Lua, load.ts): a `test` of
 * its category, which nothing in the bench changes (seed.ts: 1 + id % 100, createPet's pets have ids above
 * the seeded ones), then a `replace` of its name by `name`, so every request changes the pet and succeeds.
 */
export const seededCategoryOf = (id: number): number => 1 + (id % 100);
export const updatePatch = (id: number, name: string): string =>
  JSON.stringify([
    { op: "test", path: "/categoryId", value: seededCategoryOf(id) },
    { op: "replace", path: "/name", value: name },
  ]);

/** The path and query of a GET scenario. */
export function scenarioPath(scenario: Exclude<Scenario, "getPet" | "createPet" | "updatePet">): string {
  switch (scenario) {
    case "listPets":
      return "/v1/pets";
    case "listPets?status=available&limit=100":
      return "/v1/pets?status=available&limit=100";
    case "listPets?name=rare":
      return "/v1/pets?name=pet%204242";
    case "listPets?name=shared":
      return "/v1/pets?name=bella";
    case "listPets?name=word":
      // The word search (beyond a build before it: there a whole-name prefix that no name has).
      return "/v1/pets?name=1";
    case "getInventory":
      return "/v1/store/inventory";
  }
}

/** What the bench (running.ts) asks of one load-generator process. */
export interface LoadJob {
  url: string;
  apiKey: string;
  scenario: Scenario;
  connections: number;
  durationSeconds: number;
  /** getPet and updatePet pick ids uniformly in 1..maxId (every one a seeded pet). */
  maxId: number;
  /** Another key to alternate with `apiKey` slice by slice in the same run (load.ts, keySliceMs); `referenceFirst`: it takes the first slice. */
  referenceKey?: string;
  referenceFirst?: boolean;
}

/** Requests counted in one key's slices of a key-sliced run, and the time they were counted over. */
export interface SliceSum {
  requests: number;
  ms: number;
}

/** One wrk run (load.ts); latencies in ms, to the µs. */
export interface LoadResult {
  /** With a reference key: `apiKey`'s rate over its slices (load.ts, keySliceSums). */
  requestsPerSecond: number;
  /** With a reference key: the requests and time counted in each key's slices. */
  keySlices?: { key: SliceSum; reference: SliceSum };
  p50Ms: number;
  p99Ms: number;
  total: number;
  /** Responses with a status of 400 or above (wrk's count). */
  non2xx: number;
  /** Connect, read and write errors. */
  errors: number;
  timeouts: number;
  /** CPU time over wall time during the run (1 = a whole core): wrk's and the server's, sampled (load.ts). */
  generatorBusy: number;
  serverBusy: number;
}
