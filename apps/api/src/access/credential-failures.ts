import { HttpError } from "../http-error.js";
import type { LimitName, RequestLimiter } from "./rate-limit.js";

/** The 429 of an abuse limit: the Error body with `Retry-After`. */
export function rateLimited(retryAfterSeconds: number, reason: string): HttpError {
  return new HttpError(429, "RATE_LIMITED", `${reason}; retry after ${retryAfterSeconds} seconds.`, {
    "Retry-After": String(retryAfterSeconds),
  });
}

export interface CredentialFailure {
  /** Counts missing or wrong credentials per client address. */
  authFailures: RequestLimiter;
  clientAddress: string;
  /** Called with "auth_failures" when the address is over its budget (a metric's hook). */
  onRejected?: ((limit: LimitName) => void) | undefined;
  /** The answer while the address is within its budget: the 401 for what was presented. */
  unauthorized: () => HttpError;
  /** The 429's reason once it is not: "Too many requests with a missing or invalid API key from this address". */
  tooManyReason: string;
}

/**
 * A missing or wrong credential (an API key, the metrics token) spends the
 * client address's failure budget: within it the answer is the 401, past it a 429.
 * One budget for every credential, so guessing one does not reset the other.
 */
export async function refuseCredential({ authFailures, clientAddress, onRejected, unauthorized, tooManyReason }: CredentialFailure): Promise<HttpError> {
  const decision = await authFailures.consume(clientAddress);
  if (decision.allowed) return unauthorized();
  onRejected?.("auth_failures");
  return rateLimited(decision.retryAfterSeconds, tooManyReason);
}
