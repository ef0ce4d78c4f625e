import { ErrorBody } from "@petstore/contract";

/** A response the typed client threw because its status was not 2xx. */
interface FailedResponse {
  status: number;
  body: unknown;
}

function isFailedResponse(error: unknown): error is FailedResponse {
  return typeof error === "object" && error !== null && "status" in error && typeof error.status === "number";
}

export function isUnauthorized(error: unknown): boolean {
  return isFailedResponse(error) && error.status === 401;
}

/** Worth retrying: the network failed, the API was busy, or it faulted. A 4xx will not change by asking again. */
export function isTransientFailure(error: unknown): boolean {
  if (!isFailedResponse(error)) return true;
  return error.status === 429 || error.status >= 500;
}

/** The API's own Error body when it sent one. */
export function errorBodyOf(error: unknown): ErrorBody | undefined {
  if (!isFailedResponse(error)) return undefined;
  const parsed = ErrorBody.safeParse(error.body);
  return parsed.success ? parsed.data : undefined;
}

/** One sentence staff can act on, whatever went wrong. */
export function describeFailure(error: unknown): string {
  const body = errorBodyOf(error);
  if (body) return body.message;
  if (isFailedResponse(error)) return `The API answered with status ${error.status}.`;
  if (error instanceof Error && error.name === "ZodError") return "The API sent a response this app does not understand.";
  return "The API could not be reached. Check your connection and try again.";
}
