import { errorBodyOf, retryAfterDelayMs } from "./api-errors.js";
import type { RateLimitPacer } from "./rate-limit-pacer.js";
import { realSleep, type Sleep } from "./sleep.js";

/**
 * The retry policy of the changes beyond the spec (updatePet, deletePet, restorePet), each sent with an
 * `Idempotency-Key`: a resend with the same key is replayed, never applied twice. Only failures that may
 * pass are resent. Unlike a create's, a 409 is resent only when the key's first attempt is still in
 * flight (`IDEMPOTENCY_KEY_IN_USE`): a `CONFLICT` is a failed `test`, an answer to act on, not to repeat.
 */

/** Attempts per change, the first included. */
export const CHANGE_MAX_ATTEMPTS = 3;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;

export interface ChangeRetryOptions {
  maxAttempts?: number;
  sleep?: Sleep;
  /** A run of changes (the list's bulk actions) shares one, to wait for the rate-limit budget. */
  pacer?: Pick<RateLimitPacer, "beforeRequest" | "observe"> | undefined;
}

export function isWorthResendingChange(failure: unknown): boolean {
  if (typeof failure === "object" && failure !== null && "status" in failure && typeof failure.status === "number") {
    const { status } = failure;
    if (status === 409) return errorBodyOf(failure)?.code === "IDEMPOTENCY_KEY_IN_USE";
    return status >= 500 || status === 429 || status === 408;
  }
  if (failure instanceof Error && failure.name === "ZodError") return false;
  // Thrown by fetch: the connection failed, or the answer was cut off.
  return true;
}

function backoffMs(attempt: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** (attempt - 1), BACKOFF_MAX_MS);
}

/**
 * Sends a change (`send` must carry the same Idempotency-Key every time) until it answers 2xx, a failure
 * that will not pass, or `maxAttempts` run out. Resolves with the 2xx answer; rejects with the last
 * failure as the typed client reports it (a response or a thrown error), for `describeFailure`.
 */
export async function sendChangeWithRetry<Answer extends { status: number; headers?: Headers }>(
  send: () => Promise<Answer>,
  { maxAttempts = CHANGE_MAX_ATTEMPTS, sleep = realSleep, pacer }: ChangeRetryOptions = {},
): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    let failure: unknown;
    const sentIn = await pacer?.beforeRequest();
    let headers: Headers | undefined;
    try {
      const answer = await send();
      headers = answer.headers;
      if (answer.status >= 200 && answer.status < 300) return answer;
      failure = answer;
    } catch (thrown) {
      failure = thrown;
    } finally {
      if (sentIn !== undefined) pacer?.observe(headers, sentIn);
    }
    if (attempt >= maxAttempts || !isWorthResendingChange(failure)) throw failure;
    await sleep(retryAfterDelayMs(failure) ?? backoffMs(attempt));
  }
}
