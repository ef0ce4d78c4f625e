import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { isStoreUnavailable, isTransientFailure, isUnauthorized, retryAfterSeconds } from "./api-errors.js";

interface QueryClientOptions {
  /** Called on any 401, from any query or mutation. */
  onUnauthorized: () => void;
  /** Milliseconds between retries the API gave no `Retry-After` for; tests shorten it. */
  retryDelay?: number | undefined;
}

const MAX_RETRIES = 2;
/** However long `Retry-After` says, a waiting page asks again at least this often. */
const MAX_RETRY_DELAY_MS = 30_000;
/** And never sooner than this, so a `Retry-After: 0` cannot become a tight loop. */
const MIN_RETRY_AFTER_MS = 1_000;

/** TanStack Query's own default: 1 s, 2 s, 4 s… */
function exponentialDelay(failureCount: number): number {
  return Math.min(1000 * 2 ** failureCount, MAX_RETRY_DELAY_MS);
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
        // The database comes back by itself (DESIGN.md), so a page keeps asking
        // until it does, no more often than Retry-After allows.
        retry: (failureCount, error) =>
          isStoreUnavailable(error) || (failureCount < MAX_RETRIES && isTransientFailure(error)),
        retryDelay: (failureCount, error) => {
          const seconds = retryAfterSeconds(error);
          if (seconds !== undefined) return Math.min(Math.max(seconds * 1000, MIN_RETRY_AFTER_MS), MAX_RETRY_DELAY_MS);
          return retryDelay ?? exponentialDelay(failureCount);
        },
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
      // Creating a pet is not idempotent: never resend it on our own.
      mutations: { retry: false },
    },
  });
}
