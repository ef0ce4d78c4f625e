import { ERROR_MESSAGE_MAX_LENGTH, type ErrorBody, type ErrorCode } from "@petstore/contract";

// Below every layer on purpose: the pets operations, the access checks and the
// HTTP transport all answer failures with it, and none of them may import upwards.

/** The Error JSON of the contract: `status` always equals the HTTP status. */
export function toErrorBody(status: number, code: ErrorCode, message: string): ErrorBody {
  return { code, message: truncated(message, ERROR_MESSAGE_MAX_LENGTH), status };
}

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

