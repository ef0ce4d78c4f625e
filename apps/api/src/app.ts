import { randomUUID } from "node:crypto";
import { petstoreContract } from "@petstore/contract";
import { buildOpenApiDocument } from "@petstore/contract/openapi";
import { createExpressEndpoints, type RequestValidationError } from "@ts-rest/express";
import cors from "cors";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import helmet from "helmet";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import swaggerUi from "swagger-ui-express";
import { requireApiKey } from "./auth.js";
import type { Database } from "./database.js";
import type { Config } from "./env.js";
import { describeValidationFailure, HttpError, toErrorBody, validationIssues } from "./errors.js";
import { createPetsRouter, markGetPetDeprecated } from "./pets/pets-router.js";
import { FixedWindowLimiter } from "./rate-limit.js";

export const BODY_LIMIT_BYTES = 16 * 1024;

export interface AppDeps {
  config: Config;
  logger: Logger;
  database: Database;
}

export function createApp({ config, logger, database }: AppDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);

  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const id = randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      // Only what an operator needs; the Authorization header never reaches a log line.
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
    }),
  );
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          "style-src": ["'self'", "'unsafe-inline'"],
          "img-src": ["'self'", "data:"],
          // TLS is the proxy's business; a plain-HTTP development API must not ask for upgrades.
          "upgrade-insecure-requests": null,
        },
      },
      strictTransportSecurity: config.nodeEnv === "production",
      crossOriginResourcePolicy: { policy: "cross-origin" },
    }),
  );
  app.use(
    cors({
      origin: config.corsOrigins,
      methods: ["GET", "POST"],
      allowedHeaders: ["Authorization", "Content-Type"],
      exposedHeaders: ["Link", "Location", "Retry-After", "X-Request-Id", "Deprecation", "Sunset"],
      maxAge: 600,
    }),
  );

  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    if (await database.isReady()) {
      res.json({ status: "ok", database: database.provider });
      return;
    }
    res.status(503).json(toErrorBody(503, "UNAVAILABLE", "The database is not reachable."));
  });

  const openApiDocument = buildOpenApiDocument(config.servers);
  app.get("/v1/openapi.json", (_req, res) => {
    res.json(openApiDocument);
  });
  app.use("/docs", swaggerUi.serve, swaggerUi.setup(undefined, { swaggerOptions: { url: "/v1/openapi.json" } }));

  app.get("/v1/pets/:petId", markGetPetDeprecated);
  app.use(
    "/v1",
    requireApiKey({
      apiKeys: config.apiKeys,
      authFailures: new FixedWindowLimiter(config.authFailuresPerMinute),
      requestsPerKey: new FixedWindowLimiter(config.rateLimitPerMinute),
    }),
  );
  app.post("/v1/pets", requireJsonBody, express.json({ limit: BODY_LIMIT_BYTES, type: "application/json" }));

  createExpressEndpoints(petstoreContract, createPetsRouter(database.pets), app, {
    responseValidation: config.validateResponses,
    requestValidationErrorHandler: sendValidationError,
  });

  for (const [path, methods] of allowedMethodsByPath()) {
    app.all(path, (_req, _res, next) => {
      next(
        new HttpError(405, "METHOD_NOT_ALLOWED", `This path supports ${methods.join(", ")} only.`, {
          Allow: methods.join(", "),
        }),
      );
    });
  }
  app.use((req, _res, next) => {
    next(new HttpError(404, "NOT_FOUND", `No route matches ${req.method} ${req.path}.`));
  });
  app.use(sendError);
  return app;
}

/** Express paths of the contract with the methods each serves (HEAD comes with GET; OPTIONS is CORS). */
function allowedMethodsByPath(): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const route of Object.values(petstoreContract)) {
    const methods = byPath.get(route.path) ?? ["OPTIONS"];
    methods.push(route.method);
    if (route.method === "GET") methods.push("HEAD");
    byPath.set(route.path, methods);
  }
  return new Map([...byPath].map(([path, methods]) => [path, [...new Set(methods)].sort()]));
}

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

const requireJsonBody: RequestHandler = (req, _res, next) => {
  const contentType = req.headers["content-type"];
  const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
  if (contentType === undefined ? hasBody : !JSON_MEDIA_TYPE.test(contentType)) {
    next(new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "The request body must be JSON, sent with Content-Type: application/json."));
    return;
  }
  next();
};

const sendValidationError = (error: RequestValidationError, _req: express.Request, res: express.Response) => {
  const issues = validationIssues([
    { where: "path", error: error.pathParams },
    { where: "query", error: error.query },
    { where: "header", error: error.headers },
    { where: "body", error: error.body },
  ]);
  res.status(400).json({ ...toErrorBody(400, "VALIDATION_ERROR", describeValidationFailure(issues)), issues });
};

/** Errors thrown by body-parser carry a `type`; map each to the Error body. */
const BODY_PARSER_ERRORS: Record<string, HttpError> = {
  "entity.parse.failed": new HttpError(400, "VALIDATION_ERROR", "The request body is not valid JSON."),
  "entity.too.large": new HttpError(
    413,
    "PAYLOAD_TOO_LARGE",
    `The request body is larger than ${BODY_LIMIT_BYTES / 1024} KiB.`,
  ),
  "encoding.unsupported": new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "The request body's Content-Encoding is not supported."),
  "charset.unsupported": new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "The request body must be UTF-8 JSON."),
  "request.aborted": new HttpError(400, "VALIDATION_ERROR", "The request body was not received in full."),
  "request.size.invalid": new HttpError(400, "VALIDATION_ERROR", "The request body's length does not match Content-Length."),
};

const sendError: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const known =
    error instanceof HttpError
      ? error
      : error instanceof URIError // Express could not percent-decode a path parameter
        ? new HttpError(400, "VALIDATION_ERROR", "The request path is not validly percent-encoded.")
        : typeof error === "object" && error !== null && "type" in error
        ? BODY_PARSER_ERRORS[String(error.type)]
        : undefined;
  if (!known) req.log.error({ err: error }, "unhandled error");
  const failure = known ?? new HttpError(500, "INTERNAL", `An unexpected error occurred; quote request id ${String(req.id)} when reporting it.`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.set(failure.headers).status(failure.status).json(failure.body);
};
