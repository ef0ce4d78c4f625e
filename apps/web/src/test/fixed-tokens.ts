import type { TokenManager } from "../api/token-manager.js";

/** A token manager that always has `token`, for tests of a client alone (no token endpoint involved). */
export function fixedTokens(token: string): TokenManager {
  return {
    token: async () => token,
    renew: async () => token,
    clear: () => {},
    endedReason: null,
    onSessionEnded: () => () => {},
  };
}
