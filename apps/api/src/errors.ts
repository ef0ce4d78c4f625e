import type { ErrorBody, ErrorCode, ErrorIssue } from "@petstore/contract";
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

/** Each field at fault, named by where it was sent (`body.name`, `query.limit`, `path.petId`). */
export function validationIssues(failures: Array<{ where: string; error: ZodError | null }>): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  for (const { where, error } of failures) {
    if (!error) continue;
    for (const issue of error.issues) {
      issues.push(
        issue.path.length === 0 && where === "body"
          ? { field: "body", message: "must be a JSON object with name and categoryId" }
          : { field: [where, ...issue.path].join("."), message: issue.message },
      );
    }
  }
  return issues;
}

/**
 * One sentence naming each field at fault, e.g.
 * "Invalid request: body.name: name must not be empty; query.limit: limit must be at most 100."
 */
export function describeValidationFailure(issues: ErrorIssue[]): string {
  return `Invalid request: ${issues.map(({ field, message }) => `${field}: ${message}`).join("; ")}.`;
}
