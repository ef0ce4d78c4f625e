import { v1Contract, type ListPetsQuery } from "@petstore/contract";
import { initTsrReactQuery } from "@ts-rest/react-query/v5";
import { createContext, useContext, useState, type ReactNode } from "react";
import type { TokenManager } from "./token-manager.js";
import { API_ORIGIN } from "./api-origin.js";
import { authorizedFetcher } from "./authorized-fetch.js";

export { API_ORIGIN, bearer } from "./api-origin.js";

/**
 * Every request and response is typed by the contract; responses are parsed
 * with its zod schemas too, so a drifting API shows up as an error here rather
 * than as a half-rendered page. Each request carries the session's token
 * (`tokens`, in memory only), so this module knows nothing of how the session
 * was started.
 */
export function createPetstoreClient(tokens: TokenManager) {
  return initTsrReactQuery(v1Contract, apiClientOptions(tokens));
}

/** What every client of the API shares (this one, and the staff-access one in access-client.tsx). */
export function apiClientOptions(tokens: TokenManager) {
  return {
    baseUrl: API_ORIGIN,
    // Puts the token on each request, renews it when refused, and retries once (authorized-fetch.ts).
    api: authorizedFetcher(tokens),
    validateResponse: true,
  };
}

export type PetstoreClient = ReturnType<typeof createPetstoreClient>;

const PetstoreClientContext = createContext<PetstoreClient | null>(null);

/** Makes one client for the app; needs a QueryClientProvider above it. */
export function PetstoreClientProvider({ tokens, children }: { tokens: TokenManager; children: ReactNode }) {
  const [client] = useState(() => createPetstoreClient(tokens));
  return (
    <PetstoreClientContext.Provider value={client}>
      <client.ReactQueryProvider>{children}</client.ReactQueryProvider>
    </PetstoreClientContext.Provider>
  );
}

export function usePetstoreClient(): PetstoreClient {
  const client = useContext(PetstoreClientContext);
  if (!client) throw new Error("usePetstoreClient must be used inside <PetstoreClientProvider>");
  return client;
}

/** Keys of every cached query about pets, so one invalidation refreshes them all. */
export const petQueryKeys = {
  all: ["pets"] as const,
  // The contract's parsed query: `limit` is always set, so the default and an explicit 20 are one cache entry.
  list: (query: ListPetsQuery) =>
    [
      "pets",
      "list",
      query.status ?? "all",
      query.limit,
      query.after ?? 0,
      query.name ?? "",
      query.categoryId ?? 0,
      query.before ?? 0,
    ] as const,
  detail: (petId: number) => ["pets", "detail", petId] as const,
  /** A pet's history (beyond the spec), every page loaded so far. */
  history: (petId: number) => ["pets", "history", petId] as const,
  /** A page of the deleted pets (beyond the spec), from cursor `after`. */
  deleted: (after: string | undefined) => ["pets", "deleted", after ?? ""] as const,
  /**
   * The store's figures (getInventory): under `pets`, so every change to pets that refreshes the lists
   * refreshes them too.
   */
  inventory: ["pets", "inventory"] as const,
};

/** Keys of the cached category names (listCategories); a new or renamed category invalidates `all`. */
export const categoryQueryKeys = {
  all: ["categories"] as const,
};
