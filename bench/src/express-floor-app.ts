/**
 * The Express 4 app both Express floors serve (express-floor-server.ts, the production floor;
 * bare-express-floor-server.ts, the bare Express floor): the routes, the bearer check, the hand-written
 * query and body checks of floor-shared.ts, `express.json` (16 KiB) on POST /v1/pets only, and the
 * bodies, status codes and headers the contract requires (Link, Location, deprecation headers,
 * WWW-Authenticate). What a floor adds to that, its duties, comes in through FloorDuties, so the two
 * floors differ by those duties and nothing else.
 */
import express, {
  type ErrorRequestHandler,
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from "express";
import {
  DEPRECATION,
  errorBody,
  listPage,
  parseListQuery,
  parseNewPet,
  parsePetId,
  toPet,
  UNAUTHORIZED,
  type createKeyCheck,
  type PetStore,
} from "./floor-shared.js";

/** What a floor does beside the API's work: nothing for the bare floor; logging, headers and counting for the production floor. */
export interface FloorDuties {
  /** Runs first on every request (the production floor: request id, security headers, the log line). */
  everyRequest?: RequestHandler;
  /** A request's key has passed the check (the production floor: counts it). */
  keyAccepted?: (key: number) => void;
  /** An error no route answered (logged; the answer is a 500). */
  unhandled: (error: unknown) => void;
}

const fail = (res: Response, status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  void res
    .set(headers)
    .status(status)
    .json(errorBody(status, code, message));

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;
const requireJson: RequestHandler = (req, res, next) => {
  if (!JSON_MEDIA_TYPE.test(req.headers["content-type"] ?? "")) {
    return fail(
      res,
      415,
      "UNSUPPORTED_MEDIA_TYPE",
      "The request body must be JSON, sent with Content-Type: application/json.",
    );
  }
  next();
};

/** Express 4 does not catch rejected promises. */
const route =
  (handler: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req, res, next: NextFunction) =>
    void handler(req, res).catch(next);

/** The floor's app on `store`, checking keys with `keyIndex`, with `duties` added. */
export function expressFloorApp(
  store: PetStore,
  keyIndex: ReturnType<typeof createKeyCheck>,
  duties: FloorDuties,
): Express {
  const { everyRequest, keyAccepted, unhandled } = duties;
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  if (everyRequest) app.use(everyRequest);
  app.get("/readyz", (_req, res) => void res.json({ status: "ok" }));
  app.use("/v1/pets/:petId", (_req, res, next) => {
    res.set(DEPRECATION);
    next();
  });
  app.use("/v1", (req, res, next) => {
    const key = keyIndex(req.headers.authorization);
    if (key === -1) return fail(res, 401, "UNAUTHORIZED", "The API key is not valid.", UNAUTHORIZED);
    keyAccepted?.(key);
    next();
  });

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
    if (type === "entity.parse.failed")
      return fail(res, 400, "VALIDATION_ERROR", "The request body is not valid JSON.");
    if (type === "entity.too.large")
      return fail(res, 413, "PAYLOAD_TOO_LARGE", "The request body is larger than 16 KiB.");
    unhandled(error);
    if (res.headersSent) return void res.destroy();
    fail(res, 500, "INTERNAL", "An unexpected error occurred.");
  };
  app.use(sendError);
  return app;
}

/** Listens on 127.0.0.1:`port`; on SIGTERM, closes the server, then the store, and exits. */
export function listenUntilTerminated(app: Express, port: number, store: PetStore): void {
  const server = app.listen(port, "127.0.0.1");
  process.once("SIGTERM", () => server.close(() => void store.close().finally(() => process.exit(0))));
}
