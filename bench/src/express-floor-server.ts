/**
 * The production floor: what a hand-written Express 4 app with production's
 * duties costs for the API's work, so the API's overhead over its own
 * framework is measurable. The app of express-floor-app.ts (same bearer check,
 * same query and body checks by hand: no zod, no ts-rest; the same bodies,
 * status codes and contract headers) plus the duties: the API's security
 * headers and X-Request-Id, a per-key request counter (the API's rate-limit
 * counting, never over its limit here), and one pino line per request at info
 * to stdout, as the API logs. The bare Express floor
 * (bare-express-floor-server.ts) is the same app without them.
 *
 * The database by DATABASE_URL: a `file:` URL is SQLite through the same
 * prepared better-sqlite3 statements as the API; a `postgres://` URL is
 * PostgreSQL through the API's generated Prisma client making the API's calls.
 *
 * Env: PORT, API_KEYS (comma-separated), DATABASE_URL, DATABASE_POOL_SIZE (default 10).
 */
import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import { pino } from "pino";
import { expressFloorApp, listenUntilTerminated } from "./express-floor-app.js";
import { floorSetup, JSON_API_HEADERS } from "./floor-shared.js";

const { port, keyIndex, store } = await floorSetup("prisma");

// The API's logger options (apps/api/src/ops/logger.ts); pino's default destination is stdout.
const logger = pino({
  level: "info",
  base: { service: "petstore-api" },
  redact: { paths: ["req.headers.authorization", "headers.authorization", "authorization"], censor: "[redacted]" },
});

/** Requests per key in one-minute windows: the API's FixedWindowLimiter, counting only. */
const requestsPerKey = new Map<number, number>();
let windowEndsAt = 0;
function countRequest(key: number): void {
  const now = Date.now();
  if (now >= windowEndsAt) {
    requestsPerKey.clear();
    windowEndsAt = now + 60_000;
  }
  requestsPerKey.set(key, (requestsPerKey.get(key) ?? 0) + 1);
}

/** Request id, security headers, and the log line once the answer is sent. */
const requestLog: RequestHandler = (req, res, next) => {
  const started = performance.now();
  const id = randomUUID();
  res.set(JSON_API_HEADERS).setHeader("X-Request-Id", id);
  res.on("finish", () => {
    const statusCode = res.statusCode;
    const level = statusCode >= 500 ? "error" : statusCode >= 400 ? "warn" : "info";
    logger[level](
      {
        req: { id, method: req.method, url: req.originalUrl },
        res: { statusCode },
        responseTime: Math.round(performance.now() - started),
      },
      "request completed",
    );
  });
  next();
};

const app = expressFloorApp(store, keyIndex, {
  everyRequest: requestLog,
  keyAccepted: countRequest,
  unhandled: (error) => logger.error({ err: error }, "unhandled error"),
});
listenUntilTerminated(app, port, store);
