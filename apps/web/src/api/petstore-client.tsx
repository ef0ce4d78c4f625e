import { petstoreContract, type ListPetsQuery } from "@petstore/contract";
import { initTsrReactQuery } from "@ts-rest/react-query/v5";
import { createContext, useContext, useState, type ReactNode } from "react";

const DEV_API_ORIGIN = "http://127.0.0.1:3000";

/**
 * The API's origin (no `/v1`: the contract's path prefix adds it), read at build
 * time: `VITE_API_URL` when set; else, in a production build, the page's own
 * origin ("" makes every request same-origin: the API serves this build);
 * else, under `vite dev`, the development API.
 */
export const API_ORIGIN = (import.meta.env.VITE_API_URL || (import.meta.env.PROD ? "" : DEV_API_ORIGIN)).replace(/\/+$/, "");

export function bearer(apiKey: string): string {
  return `Bearer ${apiKey}`;
}

/** Where the client gets the API key; null when nobody is signed in. */
export type ApiKeySource = () => string | null;

/**
 * Every request and response is typed by the contract; responses are parsed
 * with its zod schemas too, so a drifting API shows up as an error here rather
 * than as a half-rendered page. The key comes from `readApiKey`, so this
 * module knows nothing of where the session keeps it.
 */
export function createPetstoreClient(readApiKey: ApiKeySource) {
  return initTsrReactQuery(petstoreContract, apiClientOptions(readApiKey));
}

/** What every client of the API shares (this one, and the staff-access one in access-client.tsx). */
export function apiClientOptions(readApiKey: ApiKeySource) {
  return {
    baseUrl: API_ORIGIN,
    baseHeaders: {
      // Read per request: the key changes when staff sign in or out.
      Authorization: () => bearer(readApiKey() ?? ""),
    },
    validateResponse: true,
  };
}

export type PetstoreClient = ReturnType<typeof createPetstoreClient>;

const PetstoreClientContext = createContext<PetstoreClient | null>(null);

/** Makes one client for the app; needs a QueryClientProvider above it. */
export function PetstoreClientProvider({ readApiKey, children }: { readApiKey: ApiKeySource; children: ReactNode }) {
  const [client] = useState(() => createPetstoreClient(readApiKey));
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
    ["pets", "list", query.status ?? "all", query.limit, query.after ?? 0, ...(query.name !== undefined ? [query.name] : [])] as const,
  detail: (petId: number) => ["pets", "detail", petId] as const,
};
