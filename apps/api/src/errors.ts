import type { ErrorBody, ErrorCode } from "@petstore/contract";
import type { ZodError } from "zod";

export function toErrorBody(status: number, code: ErrorCode, message: string): ErrorBody {
  return { code, message, status };
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
}

/**
 * One sentence naming each field at fault, e.g.
 * "Invalid request: body.name: name must not be empty; query.limit: limit must be at most 100."
 */
export function describeValidationFailure(failures: Array<{ where: string; error: ZodError | null }>): string {
  const parts: string[] = [];
  for (const { where, error } of failures) {
    if (!error) continue;
    for (const issue of error.issues) {
      if (issue.path.length === 0 && where === "body") {
        parts.push("body: must be a JSON object with name and categoryId");
        continue;
      }
      parts.push(`${[where, ...issue.path].join(".")}: ${issue.message}`);
    }
  }
  return `Invalid request: ${parts.join("; ")}.`;
}
