import {
  ERROR_ISSUE_FIELD_MAX_LENGTH,
  ERROR_ISSUE_MESSAGE_MAX_LENGTH,
  ERROR_ISSUES_MAX,
  type ErrorIssue,
} from "@petstore/contract";
import type { AppRoute } from "@ts-rest/core";
import type { RequestValidationError } from "@ts-rest/express";
import type { ErrorRequestHandler, Request, RequestHandler, Response } from "express";
import { z, type ZodError } from "zod";
import { HttpError, toErrorBody, truncated } from "../base/http-error.js";
import {
  DATABASE_RETRY_AFTER_SECONDS,
  storageFaultOf,
  type StorageFault,
  type StorageFaultCause,
} from "../data/database-unavailable.js";

/** What a body must be, from the route's schema: "must be a JSON object with name and categoryId". */
function describeExpectedBody(schema: unknown): string {
  // A JSON Patch (updatePet): its own bounds say what it must be.
  if (schema instanceof z.ZodArray) return "must be a JSON array of patch operations";
  if (!(schema instanceof z.ZodObject)) return "must be valid";
  const required = Object.entries(schema.shape as Record<string, z.ZodTypeAny>)
    .filter(([, field]) => !field.isOptional())
    .map(([name]) => name);
  return required.length > 0 ? `must be a JSON object with ${required.join(" and ")}` : "must be a JSON object";
}

/** Where a field was sent, as JavaScript would reach it: `body.name`, `body[2].path` (an array's index in brackets). */
const fieldName = (where: string, path: ReadonlyArray<string | number>): string =>
  path.reduce<string>((name, part) => (typeof part === "number" ? `${name}[${part}]` : `${name}.${part}`), where);

/** Each field at fault, named by where it was sent (`body.name`, `query.limit`, `path.petId`). */
function validationIssues(
  failures: Array<{ where: string; error: ZodError | null }>,
  bodySchema?: unknown,
): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  for (const { where, error } of failures) {
    if (!error) continue;
    for (const issue of error.issues) {
      issues.push(
        issue.path.length === 0 && where === "body" && issue.code !== "too_small" && issue.code !== "too_big"
          ? { field: "body", message: describeExpectedBody(bodySchema) }
          : {
              field: truncated(fieldName(where, issue.path), ERROR_ISSUE_FIELD_MAX_LENGTH),
              message: truncated(issue.message, ERROR_ISSUE_MESSAGE_MAX_LENGTH),
            },
      );
    }
  }
  // The contract bounds the list; a body can hold only a few fields, so this cuts nothing in practice.
  return issues.slice(0, ERROR_ISSUES_MAX);
}

/**
 * One sentence naming each field at fault, e.g.
 * "Invalid request: body.name: name must not be empty; query.limit: limit must be at most 100."
 */
function describeValidationFailure(issues: ErrorIssue[]): string {
  return `Invalid request: ${issues.map(({ field, message }) => `${field}: ${message}`).join("; ")}.`;
}

/** The route's request schemas refused the request: 400 naming every field at fault. */
export function sendValidationError(
  error: RequestValidationError,
  route: AppRoute,
  _req: Request,
  res: Response,
): void {
  const issues = validationIssues(
    [
      { where: "path", error: error.pathParams },
      { where: "query", error: error.query },
      { where: "header", error: error.headers },
      { where: "body", error: error.body },
    ],
    "body" in route ? route.body : undefined,
  );
  res.status(400).json({ ...toErrorBody(400, "VALIDATION_ERROR", describeValidationFailure(issues)), issues });
}

/** Nothing matched: the JSON 404. */
export const notFound: RequestHandler = (req, _res, next) => {
  next(new HttpError(404, "NOT_FOUND", `No route matches ${req.method} ${req.path}.`));
};

export interface ErrorHandlerOptions {
  /** A request answered 503 because the database could not serve it (ops/metrics.ts counts these by cause). */
  onStorageFault?: (cause: StorageFaultCause) => void;
}

/**
 * The last handler: every failure leaves as the Error JSON; an unknown one is
 * logged and is a 500. A database that cannot serve (unreachable, locked past
 * its timeout, out of disk, memory or connections) is an outage the client can
 * wait out: 503 with Retry-After, and one log line naming the cause.
 */
export function errorHandler({ onStorageFault }: ErrorHandlerOptions = {}): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    let known: HttpError | undefined;
    if (error instanceof HttpError) known = error;
    else if (error instanceof URIError) {
      // Express could not percent-decode a path parameter
      known = new HttpError(400, "VALIDATION_ERROR", "The request path is not validly percent-encoded.");
    } else {
      const fault = storageFaultOf(error);
      if (fault) {
        logStorageFault(req, error, fault);
        onStorageFault?.(fault.cause);
        known = databaseUnavailable();
      }
    }
    if (!known) req.log.error({ err: error }, "unhandled error");
    const failure =
      known ??
      new HttpError(
        500,
        "INTERNAL",
        `An unexpected error occurred; quote request id ${String(req.id)} when reporting it.`,
      );
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.set(failure.headers).status(failure.status).json(failure.body);
  };
}

/** The error handler without hooks. */
export const sendError: ErrorRequestHandler = errorHandler();

/**
 * One line per fault, naming the cause: at error when the database lacks a
 * resource an operator may have to restore (disk, memory, connections), at
 * warn when it is away or busy for a while.
 */
function logStorageFault(req: Request, error: unknown, { cause, description, lackOfResources }: StorageFault): void {
  const line = { err: error, cause };
  const message = `database unavailable: ${description}`;
  if (lackOfResources) req.log.error(line, message);
  else req.log.warn(line, message);
}

function databaseUnavailable(): HttpError {
  return new HttpError(
    503,
    "UNAVAILABLE",
    `The database is unavailable right now; retry after ${DATABASE_RETRY_AFTER_SECONDS} seconds.`,
    { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) },
  );
}
