import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { isTransientFailure, isUnauthorized } from "./api-errors.js";

interface QueryClientOptions {
  /** Called on any 401, from any query or mutation. */
  onUnauthorized: () => void;
  /** Milliseconds between retries of a transient failure; tests shorten it. */
  retryDelay?: number | undefined;
}

const MAX_RETRIES = 2;

export function createQueryClient({ onUnauthorized, retryDelay }: QueryClientOptions): QueryClient {
  const handleError = (error: unknown) => {
    if (isUnauthorized(error)) onUnauthorized();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: handleError }),
    mutationCache: new MutationCache({ onError: handleError }),
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => failureCount < MAX_RETRIES && isTransientFailure(error),
        ...(retryDelay === undefined ? {} : { retryDelay }),
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
      // Creating a pet is not idempotent: never resend it on our own.
      mutations: { retry: false },
    },
  });
}
