/** The scenarios, in the order they run (createPet last: it grows the table). */
export const SCENARIOS = [
  "listPets",
  "listPets?status=available&limit=100",
  "getPet",
  "listPets?name=rare",
  "listPets?name=shared",
  "createPet",
] as const;
export type Scenario = (typeof SCENARIOS)[number];

/**
 * Name searches (seed.ts: `pet 4242` is a rare prefix, `bella` one a tenth of
 * the pets share). The API's own extension, which the Express floor and the
 * baseline do not implement: run against the API only, and compared with its
 * plain `listPets` page.
 */
export const API_ONLY_SCENARIOS: ReadonlySet<Scenario> = new Set(["listPets?name=rare", "listPets?name=shared"]);

/** The path and query of a GET scenario. */
export function scenarioPath(scenario: Exclude<Scenario, "getPet" | "createPet">): string {
  switch (scenario) {
    case "listPets":
      return "/v1/pets";
    case "listPets?status=available&limit=100":
      return "/v1/pets?status=available&limit=100";
    case "listPets?name=rare":
      return "/v1/pets?name=pet%204242";
    case "listPets?name=shared":
      return "/v1/pets?name=bella";
  }
}

/** What the bench (running.ts) asks of one load-generator process. */
export interface LoadJob {
  url: string;
  apiKey: string;
  scenario: Scenario;
  connections: number;
  durationSeconds: number;
  /** getPet picks ids uniformly in 1..maxId (every one exists). */
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
