import { ErrorBody } from "@petstore/contract";
import { parseRetryAfter } from "./rate-limit-headers.js";

/** A response the typed client threw (or returned) because its status was not 2xx. */
interface FailedResponse {
  status: number;
  body: unknown;
  headers?: unknown;
}

function isFailedResponse(error: unknown): error is FailedResponse {
  return typeof error === "object" && error !== null && "status" in error && typeof error.status === "number";
}

export function isUnauthorized(error: unknown): boolean {
  return isFailedResponse(error) && error.status === 401;
}

/** The API has no such thing (404), e.g. a webhook endpoint someone deleted. */
export function isNotFound(error: unknown): boolean {
  return isFailedResponse(error) && error.status === 404;
}

/** The API's abuse limits: too many requests for the key, or too many bad keys from this address. */
export function isRateLimited(error: unknown): boolean {
  return isFailedResponse(error) && error.status === 429;
}

/** The API is up but its database is not (503 `UNAVAILABLE`); it comes back by itself. */
export function isStoreUnavailable(error: unknown): boolean {
  return errorBodyOf(error)?.code === "UNAVAILABLE";
}

/**
 * Worth retrying on our own, a moment later: the network failed or the API
 * faulted. A 4xx will not change by asking again, and a 429 asks us to wait
 * longer than a quick retry would; its message says how long.
 */
export function isTransientFailure(error: unknown): boolean {
  if (!isFailedResponse(error)) return true;
  return error.status >= 500;
}

/** The API's own Error body when it sent one. */
export function errorBodyOf(error: unknown): ErrorBody | undefined {
  if (!isFailedResponse(error)) return undefined;
  const parsed = ErrorBody.safeParse(error.body);
  return parsed.success ? parsed.data : undefined;
}

function hasHeaders(response: FailedResponse): response is FailedResponse & { headers: Headers } {
  return typeof response.headers === "object" && response.headers !== null && "get" in response.headers;
}

/** How long the API asked us to wait (`Retry-After`: seconds, or an HTTP date), in whole seconds. */
export function retryAfterSeconds(error: unknown, now: number = Date.now()): number | undefined {
  if (!isFailedResponse(error) || !hasHeaders(error)) return undefined;
  const seconds = parseRetryAfter(error.headers.get("retry-after"), now);
  return seconds === undefined ? undefined : Math.max(0, Math.ceil(seconds));
}

/** However long `Retry-After` says, the app asks again at least this often. */
export const MAX_RETRY_AFTER_MS = 30_000;
/** And never sooner than this, so a `Retry-After: 0` cannot become a tight loop. */
export const MIN_RETRY_AFTER_MS = 1_000;

/** `Retry-After` as a wait in milliseconds, kept within sane bounds; undefined when the API gave none. */
export function retryAfterDelayMs(error: unknown, now: number = Date.now()): number | undefined {
  const seconds = retryAfterSeconds(error, now);
  if (seconds === undefined) return undefined;
  return Math.min(Math.max(seconds * 1000, MIN_RETRY_AFTER_MS), MAX_RETRY_AFTER_MS);
}

function whenToTryAgain(error: unknown, retrying: boolean): string {
  if (retrying) return "Retrying…";
  const seconds = retryAfterSeconds(error);
  if (seconds === undefined || seconds < 1) return "Try again in a moment.";
  return `Try again in ${seconds === 1 ? "1 second" : `${seconds} seconds`}.`;
}

/**
 * One sentence staff can act on, whatever went wrong. `retrying`: the app is
 * already asking again on its own, so the sentence says that instead of
 * telling staff when to.
 */
export function describeFailure(error: unknown, { retrying = false }: { retrying?: boolean } = {}): string {
  // Our own words for these two: when to try again comes from `Retry-After`, the header the
  // API commits to, and only we know whether the app is already asking again.
  if (isRateLimited(error)) return `Too many requests. ${whenToTryAgain(error, retrying)}`;
  if (isStoreUnavailable(error)) return `The store's database is unavailable. ${whenToTryAgain(error, retrying)}`;
  const body = errorBodyOf(error);
  if (body) return body.message;
  if (isFailedResponse(error)) return `The API answered with status ${error.status}.`;
  if (error instanceof Error && error.name === "ZodError")
    return "The API sent a response this app does not understand.";
  return "The API could not be reached. Check your connection and try again.";
}
