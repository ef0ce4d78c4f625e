/** The four scenarios, in the order they run (createPet last: it grows the table). */
export const SCENARIOS = ["listPets", "listPets?status=available&limit=100", "getPet", "createPet"] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** What run.ts asks of one load-generator process. */
export interface LoadJob {
  url: string;
  apiKey: string;
  scenario: Scenario;
  connections: number;
  durationSeconds: number;
  /** getPet picks ids uniformly in 1..maxId (every one exists). */
  maxId: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}
