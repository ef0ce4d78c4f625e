import { ERROR_MESSAGE_MAX_LENGTH, type ErrorBody, type ErrorCode } from "@petstore/contract";

// Below every layer on purpose: the pets operations, the access checks and the
// HTTP transport all answer failures with it, and none of them may import upwards.

/** The Error JSON of the contract: `status` always equals the HTTP status. */
export function toErrorBody(status: number, code: ErrorCode, message: string): ErrorBody {
  return { code, message: truncated(message, ERROR_MESSAGE_MAX_LENGTH), status };
}

/** A handler's `404` answer. */
export const notFoundAnswer = (message: string) => ({
  status: 404 as const,
  body: toErrorBody(404, "NOT_FOUND", message),
});

/** The `400` body naming the field at fault, worded as the contract's request validation words its own. */
export function fieldRefusedBody(field: string, message: string): ErrorBody {
  const issue = { field, message };
  return { ...toErrorBody(400, "VALIDATION_ERROR", `Invalid request: ${field}: ${message}.`), issues: [issue] };
}

/** A handler's `400` answer naming the field at fault. */
export const fieldRefusedAnswer = (field: string, message: string) => ({
  status: 400 as const,
  body: fieldRefusedBody(field, message),
});

/**
 * `text` cut to `maxLength` characters, the last one "…" when cut. Messages may
 * quote what a client sent (a path, a query value), which has no bound of its own.
 */
export function truncated(text: string, maxLength: number): string {
  return text.length <= maxLength ? text : `${text.slice(0, maxLength - 1)}…`;
}

/** A failure whose status, code and message are fit to send to the client as they are. */
export class HttpError extends Error {
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;

  constructor(status: number, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.body = toErrorBody(status, code, message);
    this.headers = headers;
  }

  get status(): number {
    return this.body.status;
  }

  /** The same failure with `headers` added (a limit's `RateLimit` fields beside its `Retry-After`). */
  withHeaders(headers: Record<string, string>): HttpError {
    return new HttpError(this.status, this.body.code, this.body.message, { ...this.headers, ...headers });
  }
}
