import { randomUUID } from "node:crypto";
import type { Express, Request, RequestHandler } from "express";
import type { Logger } from "pino";
import { keyNamedInLog } from "../access/caller.js";
import { loggableUrl } from "../sso/callback-path.js";
import type { ResponseObserver } from "./metrics.js";
import { REQUEST_LINE_MESSAGE, requestLineWriter } from "./request-line.js";

declare module "http" {
  interface IncomingMessage {
    /** This request's id, also sent as `X-Request-Id`. */
    id: string;
    /** A logger whose lines carry this request (`req: { id, method, url }`); built on first use. */
    log: Logger;
  }
}

const REQUEST_ID = "X-Request-Id";
const CHILD = Symbol("request child logger");

/**
 * One log line per request, written when the response is done (or the client
 * went away): `req: { id, method, url }`, `res: { statusCode }`, `responseTime`
 * (ms), at info, warn for a 4xx, error for a 5xx; pino-http's line, without
 * pino-http's two child loggers and request serialisation per request. A
 * refused request (401, 403, 429) also names who was refused: `clientAddress`
 * (`req.ip`), and `keyId` when the key check recognised the key (a 403, a
 * per-key 429) or `keyPrefix` for an issued-form key it refused (revoked,
 * expired, unknown); read only then, so an answered request pays nothing for
 * them. Only these fields: the Authorization header, a secret or its digest
 * never reaches a log line, nor the single sign-on callback's query (its code and `state`). Every response carries `X-Request-Id`, which a client can quote.
 *
 * `req.id` and `req.log` are getters on this app's request prototype, not
 * properties written on each request: every property added to a request
 * object copies its backing store (Express has added dozens by then), garbage
 * on the hot path. `req.id` reads the `X-Request-Id` being sent; `req.log` is
 * built on first use, and most requests never log anything of their own.
 *
 * The line's listener is the response's only one of this app: `observeResponse` (the metrics, when
 * on) runs in it for a response that finished, instead of in a `finish` listener of its own. Each
 * listener is a closure and an emitter entry per request, measured in docs/performance.md.
 */
export function requestLogging(app: Express, logger: Logger, observeResponse?: ResponseObserver): RequestHandler {
  Object.defineProperties(app.request, {
    id: {
      configurable: true,
      get(this: Request): string {
        return String(this.res?.getHeader(REQUEST_ID) ?? "");
      },
    },
    log: {
      configurable: true,
      get(this: Request & { [CHILD]?: Logger }): Logger {
        return (this[CHILD] ??= logger.child({
          req: { id: this.id, method: this.method, url: loggableUrl(this.originalUrl) },
        }));
      },
    },
  });
  // The request line is built from named fields only (never a header), so the logger's
  // belt-and-braces redaction has nothing to find in it: a child without it spares each line that pass.
  const lines = logger.child({}, { redact: { paths: [] } });
  // An answered request's line is written as pino writes it, without its generic path (request-line.ts).
  const writeLine = requestLineWriter(lines);
  return (req, res, next) => {
    const started = performance.now();
    const id = randomUUID();
    res.setHeader(REQUEST_ID, id);
    // "close" follows "finish" on every response, and also ends one the client abandoned: one line either way.
    // It fires once: `on` spares `once`'s wrapper.
    res.on("close", () => {
      const elapsedMs = performance.now() - started;
      // Counted only when it finished: an abandoned response is logged, not timed.
      if (observeResponse && res.writableFinished) observeResponse(res, elapsedMs / 1000);
      const statusCode = res.statusCode;
      const level = statusCode >= 500 ? "error" : statusCode >= 400 ? "warn" : "info";
      if (!lines.isLevelEnabled(level)) return;
      const refused = statusCode === 401 || statusCode === 403 || statusCode === 429;
      if (writeLine && level !== "error" && !refused) {
        return writeLine(level, {
          id,
          method: req.method,
          url: loggableUrl(req.originalUrl),
          statusCode,
          responseTime: Math.round(elapsedMs),
        });
      }
      const line: Record<string, unknown> = {
        req: { id, method: req.method, url: loggableUrl(req.originalUrl) },
        res: { statusCode },
        responseTime: Math.round(elapsedMs),
      };
      if (refused) {
        line["clientAddress"] = req.ip ?? null;
        Object.assign(line, keyNamedInLog(res));
      }
      if (level === "error")
        lines.error({ ...line, err: new Error(`failed with status code ${statusCode}`) }, "request errored");
      else lines[level](line, REQUEST_LINE_MESSAGE);
    });
    next();
  };
}
