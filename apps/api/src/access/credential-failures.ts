import { HttpError } from "../base/http-error.js";
import { unlimited, type LimitCount, type LimitName, type RequestLimiter } from "./rate-limit.js";
import { RateLimitFields } from "./rate-limit-headers.js";

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
  /** The failure, counted already (before a database look-up it bounds): not counted again. */
  counted?: LimitCount | undefined;
}

/**
 * A missing or wrong credential (an API key, the metrics token) spends the
 * client address's failure budget: within it the answer is the 401, past it a 429.
 * One budget for every credential, so guessing one does not reset the other.
 */
export async function refuseCredential({
  authFailures,
  clientAddress,
  onRejected,
  unauthorized,
  tooManyReason,
  counted,
}: CredentialFailure): Promise<HttpError> {
  const count = counted ?? (await authFailures.count(clientAddress));
  const refusal = count.allowed ? unauthorized() : rateLimited(count.resetSeconds, tooManyReason);
  if (!count.allowed) onRejected?.("auth_failures");
  if (authFailures === unlimited) return refusal;
  // The 401 or 429 says what is left of the address's failure budget, as a counted request's answer does.
  const fields = new RateLimitFields("auth-failures", authFailures).headers(count);
  return refusal.withHeaders(fields);
}
