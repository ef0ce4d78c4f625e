import { randomUUID } from "node:crypto";
import express, { type RequestHandler } from "express";
import type { Logger } from "pino";

declare module "http" {
  interface IncomingMessage {
    /** This request's id, also sent as `X-Request-Id`. */
    id: string;
    /** A logger whose lines carry this request (`req: { id, method, url }`); built on first use. */
    log: Logger;
  }
}

const LOGGER = Symbol("request logger");
const CHILD = Symbol("request child logger");
interface LoggedRequest {
  id: string;
  method: string;
  originalUrl: string;
  [LOGGER]: Logger;
  [CHILD]?: Logger;
}

// `req.log` is a getter on Express's request prototype: most requests never log
// anything of their own, so their child logger is never built.
Object.defineProperty(express.request, "log", {
  configurable: true,
  get(this: LoggedRequest): Logger {
    return (this[CHILD] ??= this[LOGGER].child({ req: { id: this.id, method: this.method, url: this.originalUrl } }));
  },
});

/**
 * One log line per request, written when the response is done (or the client
 * went away): `req: { id, method, url }`, `res: { statusCode }`, `responseTime`
 * (ms), at info, warn for a 4xx, error for a 5xx; pino-http's line, without
 * pino-http's two child loggers and request serialisation per request. Only
 * these fields: the Authorization header never reaches a log line. Every
 * response carries `X-Request-Id`, which a client can quote.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = Date.now();
    const id = randomUUID();
    req.id = id;
    (req as unknown as LoggedRequest)[LOGGER] = logger;
    res.setHeader("X-Request-Id", id);
    // "close" follows "finish" on every response, and also ends one the client abandoned: one line either way.
    res.once("close", () => {
      const statusCode = res.statusCode;
      const level = statusCode >= 500 ? "error" : statusCode >= 400 ? "warn" : "info";
      if (!logger.isLevelEnabled(level)) return;
      const line = { req: { id, method: req.method, url: req.originalUrl }, res: { statusCode }, responseTime: Date.now() - started };
      if (level === "error") logger.error({ ...line, err: new Error(`failed with status code ${statusCode}`) }, "request errored");
      else logger[level](line, "request completed");
    });
    next();
  };
}
