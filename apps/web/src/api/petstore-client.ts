import { petstoreContract, type ListPetsQuery } from "@petstore/contract";
import { initTsrReactQuery } from "@ts-rest/react-query/v5";
import { readStoredApiKey } from "../session/api-key-storage.js";

const DEV_API_ORIGIN = "http://127.0.0.1:3000";

/** The API's origin (no `/v1`: the contract's path prefix adds it). Read at build time. */
export const API_ORIGIN = (import.meta.env.VITE_API_URL || DEV_API_ORIGIN).replace(/\/+$/, "");

export function bearer(apiKey: string): string {
  return `Bearer ${apiKey}`;
}

/**
 * Every request and response is typed by the contract; responses are parsed
 * with its zod schemas too, so a drifting API shows up as an error here rather
 * than as a half-rendered page.
 */
export const tsr = initTsrReactQuery(petstoreContract, {
  baseUrl: API_ORIGIN,
  baseHeaders: {
    // Read per request: the key changes when staff sign in or out.
    Authorization: () => bearer(readStoredApiKey() ?? ""),
  },
  validateResponse: true,
});

/** Keys of every cached query about pets, so one invalidation refreshes them all. */
export const petQueryKeys = {
  all: ["pets"] as const,
  // The contract's parsed query: `limit` is always set, so the default and an explicit 20 are one cache entry.
  list: (query: ListPetsQuery) => ["pets", "list", query.status ?? "all", query.limit, query.after ?? 0] as const,
  detail: (petId: number) => ["pets", "detail", petId] as const,
};
