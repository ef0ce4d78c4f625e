/**
 * The Express floor: what a bare Express 4 app costs for the API's work, so the
 * API's overhead over its own framework is measurable. Same bearer check, same
 * query and body checks (by hand: no zod, no ts-rest), `express.json` (16 KiB)
 * on POST /v1/pets only, the same response bodies and headers (Link, Location,
 * deprecation headers, the API's security headers and X-Request-Id), a per-key
 * request counter (the API's rate-limit counting, never over its limit here),
 * and one pino line per request at info to stdout, as the API logs.
 *
 * The database by DATABASE_URL: a `file:` URL is SQLite through the same
 * prepared better-sqlite3 statements as the API; a `postgres://` URL is
 * PostgreSQL through the API's generated Prisma client making the API's calls.
 *
 * Env: PORT, API_KEYS (comma-separated), DATABASE_URL, DATABASE_POOL_SIZE (default 10).
 */
import { randomUUID } from "node:crypto";
import express, { type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { pino } from "pino";
import {
  DEPRECATION,
  errorBody,
  floorSetup,
  JSON_API_HEADERS,
  listPage,
  parseListQuery,
  parseNewPet,
  parsePetId,
  toPet,
  UNAUTHORIZED,
} from "./floor-shared.js";

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

const fail = (res: Response, status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  void res.set(headers).status(status).json(errorBody(status, code, message));

/** Request id, security headers, and the log line once the answer is sent. */
const requestLog: RequestHandler = (req, res, next) => {
  const started = performance.now();
  const id = randomUUID();
  res.set(JSON_API_HEADERS).setHeader("X-Request-Id", id);
  res.on("finish", () => {
    const statusCode = res.statusCode;
    const level = statusCode >= 500 ? "error" : statusCode >= 400 ? "warn" : "info";
    logger[level](
      { req: { id, method: req.method, url: req.originalUrl }, res: { statusCode }, responseTime: Math.round(performance.now() - started) },
      "request completed",
    );
  });
  next();
};

const requireKey: RequestHandler = (req, res, next) => {
  const key = keyIndex(req.headers.authorization);
  if (key === -1) return fail(res, 401, "UNAUTHORIZED", "The API key is not valid.", UNAUTHORIZED);
  countRequest(key);
  next();
};

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;
const requireJson: RequestHandler = (req, res, next) => {
  if (!JSON_MEDIA_TYPE.test(req.headers["content-type"] ?? "")) {
    return fail(res, 415, "UNSUPPORTED_MEDIA_TYPE", "The request body must be JSON, sent with Content-Type: application/json.");
  }
  next();
};

/** Express 4 does not catch rejected promises. */
const route =
  (handler: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req, res, next: NextFunction) =>
    void handler(req, res).catch(next);

const app = express();
app.disable("x-powered-by");
app.set("etag", false);
app.use(requestLog);
app.get("/readyz", (_req, res) => void res.json({ status: "ok" }));
app.use("/v1/pets/:petId", (_req, res, next) => {
  res.set(DEPRECATION);
  next();
});
app.use("/v1", requireKey);

app.get(
  "/v1/pets",
  route(async (req, res) => {
    const query = parseListQuery((name) => {
      const value = req.query[name];
      return typeof value === "string" ? value : value === undefined ? undefined : "\0invalid";
    });
    if (!query) return fail(res, 400, "VALIDATION_ERROR", "Invalid request.");
    const { page, link } = await listPage(store, query);
    if (link !== undefined) res.setHeader("Link", link);
    res.status(200).json(page);
  }),
);

app.post(
  "/v1/pets",
  requireJson,
  express.json({ limit: "16kb" }),
  route(async (req, res) => {
    const pet = parseNewPet(req.body);
    if (!pet) return fail(res, 400, "VALIDATION_ERROR", "Invalid request body.");
    const row = await store.create(pet);
    res.setHeader("Location", `/v1/pets/${String(row.id)}`);
    res.status(201).json(toPet(row));
  }),
);

app.get(
  "/v1/pets/:petId",
  route(async (req, res) => {
    const idText = req.params["petId"] ?? "";
    const id = parsePetId(idText);
    if (id === 0) return fail(res, 400, "VALIDATION_ERROR", "Invalid petId.");
    const row = await store.findById(id);
    if (!row) return fail(res, 404, "NOT_FOUND", `No pet has id ${idText}.`);
    res.status(200).json(toPet(row));
  }),
);

app.use((req, res) => fail(res, 404, "NOT_FOUND", `No route matches ${req.method} ${req.path}.`));
const sendError: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
  const type = typeof error === "object" && error !== null && "type" in error ? String(error.type) : "";
  if (type === "entity.parse.failed") return fail(res, 400, "VALIDATION_ERROR", "The request body is not valid JSON.");
  if (type === "entity.too.large") return fail(res, 413, "PAYLOAD_TOO_LARGE", "The request body is larger than 16 KiB.");
  logger.error({ err: error }, "unhandled error");
  if (res.headersSent) return void res.destroy();
  fail(res, 500, "INTERNAL", "An unexpected error occurred.");
};
app.use(sendError);

const server = app.listen(port, "127.0.0.1");
process.once("SIGTERM", () => server.close(() => void store.close().finally(() => process.exit(0))));
