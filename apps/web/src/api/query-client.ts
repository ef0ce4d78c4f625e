import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import {
  isStoreUnavailable,
  isTransientFailure,
  isUnauthorized,
  MAX_RETRY_AFTER_MS,
  retryAfterDelayMs,
} from "./api-errors.js";

interface QueryClientOptions {
  /** Called on any 401, from any query or mutation. */
  onUnauthorized: () => void;
  /** Milliseconds between retries the API gave no `Retry-After` for; tests shorten it. */
  retryDelay?: number | undefined;
}

const MAX_RETRIES = 2;

/** TanStack Query's own default: 1 s, 2 s, 4 s… */
function exponentialDelay(failureCount: number): number {
  return Math.min(1000 * 2 ** failureCount, MAX_RETRY_AFTER_MS);
}

export function createQueryClient({ onUnauthorized, retryDelay }: QueryClientOptions): QueryClient {
  const handleError = (error: unknown) => {
    if (isUnauthorized(error)) onUnauthorized();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: handleError }),
    mutationCache: new MutationCache({ onError: handleError }),
    defaultOptions: {
      queries: {
        // The database comes back by itself (docs/interface.md, "database
        // unreachable"), so a page keeps asking until it does, no more often
        // than Retry-After allows.
        retry: (failureCount, error) =>
          isStoreUnavailable(error) || (failureCount < MAX_RETRIES && isTransientFailure(error)),
        retryDelay: (failureCount, error) => {
          return retryAfterDelayMs(error) ?? retryDelay ?? exponentialDelay(failureCount);
        },
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
      // A create is resent only with its Idempotency-Key, by api/retry-create.ts, never blindly here.
      mutations: { retry: false },
    },
  });
}
