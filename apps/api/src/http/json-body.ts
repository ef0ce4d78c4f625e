import express, { Router, type ErrorRequestHandler, type RequestHandler } from "express";
import { routerMethod, type ContractRoute } from "./contract-routes.js";
import { HttpError } from "../base/http-error.js";

export const BODY_LIMIT_BYTES = 16 * 1024;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * A body must be declared as one of the route's JSON media types (`application/json`, or also
 * `application/json-patch+json` for updatePet); a request with no body at all reaches validation
 * ("body is required").
 */
function requireJsonContentType(mediaTypes: readonly string[]): RequestHandler {
  const accepted = new RegExp(`^(?:${mediaTypes.map(escaped).join("|")})\\s*(;|$)`, "i");
  const refused = new HttpError(
    415,
    "UNSUPPORTED_MEDIA_TYPE",
    `The request body must be JSON, sent with Content-Type: ${mediaTypes.join(" or ")}.`,
  );
  return (req, _res, next) => {
    const contentType = req.headers["content-type"];
    const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
    if (contentType === undefined ? hasBody : !accepted.test(contentType)) {
      next(refused);
      return;
    }
    next();
  };
}

/** Errors thrown by body-parser carry a `type`; each maps to the Error body. */
const BODY_PARSER_ERRORS: Record<string, HttpError> = {
  "entity.parse.failed": new HttpError(400, "VALIDATION_ERROR", "The request body is not valid JSON."),
  "entity.too.large": new HttpError(
    413,
    "PAYLOAD_TOO_LARGE",
    `The request body is larger than ${BODY_LIMIT_BYTES / 1024} KiB.`,
  ),
  "encoding.unsupported": new HttpError(
    415,
    "UNSUPPORTED_MEDIA_TYPE",
    "The request body's Content-Encoding is not supported.",
  ),
  "charset.unsupported": new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "The request body must be UTF-8 JSON."),
  "request.aborted": new HttpError(400, "VALIDATION_ERROR", "The request body was not received in full."),
  "request.size.invalid": new HttpError(
    400,
    "VALIDATION_ERROR",
    "The request body's length does not match Content-Length.",
  ),
};

/**
 * body-parser passes on some client faults with no `type` of their own: a body whose
 * Content-Encoding does not match its bytes (zlib: corrupt, truncated, the wrong
 * format) arrives as a bare 400. Any 4xx it raises is the client's, so it is answered
 * by its status; only a 5xx (a fault of ours) goes on as a server error.
 */
const BODY_PARSER_ERRORS_BY_STATUS: Record<number, HttpError> = {
  413: BODY_PARSER_ERRORS["entity.too.large"] as HttpError,
  415: new HttpError(
    415,
    "UNSUPPORTED_MEDIA_TYPE",
    "The request body must be UTF-8 JSON, sent with Content-Type: application/json.",
  ),
};
const UNREADABLE_BODY = new HttpError(
  400,
  "VALIDATION_ERROR",
  "The request body could not be read: its bytes do not match its Content-Encoding or framing.",
);

const translateBodyParserError: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
  // The content-type check's own refusal (it names the route's media types) passes as it is.
  if (error instanceof HttpError || typeof error !== "object" || error === null) return next(error);
  const type = "type" in error ? String(error.type) : undefined;
  const known = type !== undefined ? BODY_PARSER_ERRORS[type] : undefined;
  if (known) return next(known);
  const status = "status" in error && typeof error.status === "number" ? error.status : undefined;
  if (status !== undefined && status >= 400 && status < 500)
    return next(BODY_PARSER_ERRORS_BY_STATUS[status] ?? UNREADABLE_BODY);
  next(error);
};

/**
 * The JSON body parser, on exactly the routes whose contract declares a JSON
 * body; every other route never reads a body. Mount after the key check, so a
 * request without a key is 401 before its body is looked at. A request whose
 * method no such route has (every GET) passes without walking the Router.
 */
export function jsonBodyParsers(routes: readonly ContractRoute[]): RequestHandler {
  const router = Router();
  const parsers = new Map<string, RequestHandler>();
  const parserFor = (mediaTypes: string[]) => {
    const key = mediaTypes.join(" ");
    let parser = parsers.get(key);
    if (!parser) parsers.set(key, (parser = express.json({ limit: BODY_LIMIT_BYTES, type: mediaTypes })));
    return parser;
  };
  const methods = new Set<string>();
  for (const { method, path, takesJsonBody, bodyMediaTypes } of routes) {
    if (!takesJsonBody) continue;
    router[routerMethod(method)](
      path,
      requireJsonContentType(bodyMediaTypes),
      parserFor(bodyMediaTypes),
      translateBodyParserError,
    );
    methods.add(method);
  }
  return (req, res, next) => (methods.has(req.method) ? router(req, res, next) : next());
}
