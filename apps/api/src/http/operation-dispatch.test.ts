import {
  CreatePetHeaders,
  GetPetParams,
  ListPetsQuery,
  NewPet,
  pinnedCreatePetHeaders,
  pinnedListPetsQuery,
  pinnedNewPet,
  pinnedPetIdParams,
} from "@petstore/contract";
import { initContract, TsRestResponseError, type AppRoute } from "@ts-rest/core";
import { createExpressEndpoints, initServer, type RequestValidationError } from "@ts-rest/express";
import express from "express";
import { Readable } from "node:stream";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { contractRoutes } from "./contract-routes.js";
import { matchRoutes } from "./matched-route.js";
import { dispatchOperations, servedContract } from "./operation-dispatch.js";

// A route of each kind the adapter answers differently: params, a query, a JSON body with headers, no body,
// another content type, a stream, a thrown TsRestResponseError, a thrown error.
const c = initContract();
const contract = c.router(
  {
    listThings: { method: "GET", path: "/things", query: ListPetsQuery, responses: { 200: z.unknown() } },
    getThing: {
      method: "GET",
      path: "/things/:petId",
      pathParams: GetPetParams,
      responses: { 200: z.object({ petId: z.number() }), 404: z.unknown() },
    },
    addThing: {
      method: "POST",
      path: "/things",
      body: z.object({ name: z.string().min(1) }).strip(),
      headers: z.object({
        "x-trace": z
          .string()
          .regex(/^[a-z]+$/)
          .optional(),
      }),
      responses: { 201: z.object({ name: z.string() }) },
    },
    removeThing: { method: "DELETE", path: "/things/:id/:part", body: c.noBody(), responses: { 204: c.noBody() } },
    exportThings: {
      method: "GET",
      path: "/export",
      responses: { 200: c.otherResponse({ contentType: "text/csv", body: c.type<string>() }) },
    },
    streamThings: { method: "GET", path: "/stream", responses: { 200: c.type<unknown>() } },
    refuseThing: { method: "GET", path: "/refuse", responses: { 418: z.object({ why: z.string() }) } },
    breakThing: { method: "GET", path: "/break", responses: { 200: z.unknown() } },
    addPet: { method: "POST", path: "/pets", body: NewPet, headers: CreatePetHeaders, responses: { 201: z.unknown() } },
  },
  { pathPrefix: "/v9" },
);

const implementation = initServer().router(contract, {
  listThings: async ({ query }) => ({ status: 200, body: { query } }),
  getThing: async ({ params }) =>
    params.petId === 404
      ? { status: 404, body: { missing: true } }
      : { status: 200, body: { ...params, extra: "stripped when validated" } },
  addThing: async ({ body, headers }) => ({
    status: 201,
    body: { ...body, trace: headers["x-trace"] ?? null, host: headers["x-other"] ?? null },
  }),
  removeThing: async ({ params }) => {
    if (params.part === "keep") throw new Error("refused to remove");
    return { status: 204, body: undefined };
  },
  exportThings: async () => ({ status: 200, body: "id,name\n1,Rex\n" }),
  streamThings: async () => ({ status: 200, body: Readable.from(["a", "b", "c"]) }),
  refuseThing: async () => {
    throw new TsRestResponseError(contract.refuseThing, { status: 418, body: { why: "teapot" } });
  },
  breakThing: async () => {
    throw new Error("broken");
  },
  addPet: async ({ body, headers }) => ({
    status: 201,
    body: { ...body, key: headers["idempotency-key"] ?? null, host: headers["x-other"] ?? null },
  }),
});

/** What both apps answer for a refused request: where each schema failed, and the route it was refused on. */
function invalid(error: RequestValidationError, route: AppRoute, res: express.Response) {
  const issues = (failure: z.ZodError | null) =>
    failure?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? null;
  res.status(400).json({
    path: route.path,
    params: issues(error.pathParams),
    headers: issues(error.headers),
    query: issues(error.query),
    body: issues(error.body),
  });
}

function appWith(serve: (app: express.Express) => void) {
  const app = express();
  app.use(express.json());
  app.use(matchRoutes(contractRoutes(contract)));
  serve(app);
  app.use((_req, res) => void res.status(404).json({ notFound: true }));
  app.use(
    ((error: Error, _req, res, _next) =>
      void res.status(500).json({ error: error.name, message: error.message })) as express.ErrorRequestHandler,
  );
  return app;
}

const apps = (responseValidation: boolean) => ({
  tsRest: appWith((app) =>
    createExpressEndpoints(contract, implementation, app, {
      responseValidation,
      requestValidationErrorHandler: (error, req, res) => invalid(error, req.tsRestRoute, res),
    }),
  ),
  dispatched: appWith((app) =>
    app.use(
      dispatchOperations(
        [
          servedContract(contract, implementation, {
            getThing: { pathParams: pinnedPetIdParams },
            listThings: { query: pinnedListPetsQuery },
            addPet: { body: pinnedNewPet, headers: pinnedCreatePetHeaders },
          }),
        ],
        {
          responseValidation,
          onInvalidRequest: (error, route, _req, res) => invalid(error, route, res),
        },
      ),
    ),
  ),
});

type Send = (app: express.Express) => request.Test;
const requests: Array<[string, Send]> = [
  ["a list", (app) => request(app).get("/v9/things")],
  ["a filtered list", (app) => request(app).get("/v9/things?status=sold&limit=5&after=10")],
  ["a name search (the schema, not the pinned parser)", (app) => request(app).get("/v9/things?name=%20Rex%20")],
  ["a refused query", (app) => request(app).get("/v9/things?limit=0&status=lost")],
  ["a repeated query key", (app) => request(app).get("/v9/things?limit=1&limit=2")],
  ["a path param", (app) => request(app).get("/v9/things/42")],
  ["a path param with leading zeros", (app) => request(app).get("/v9/things/0042")],
  ["a refused path param", (app) => request(app).get("/v9/things/4.2")],
  ["a percent-encoded path param", (app) => request(app).get("/v9/things/%34%32")],
  ["a malformed percent-encoding", (app) => request(app).get("/v9/things/%E0%A4%A")],
  ["another letter case and a trailing slash", (app) => request(app).get("/V9/Things/7/")],
  ["HEAD", (app) => request(app).head("/v9/things/7")],
  ["a 404 the handler answers", (app) => request(app).get("/v9/things/404")],
  [
    "a body and headers",
    (app) =>
      request(app).post("/v9/things").set("X-Trace", "abc").set("X-Other", "kept").send({ name: "Rex", extra: 1 }),
  ],
  ["a refused body and header", (app) => request(app).post("/v9/things").set("X-Trace", "ABC").send({ name: "" })],
  ["no body", (app) => request(app).delete("/v9/things/1/wheel")],
  ["a handler's throw", (app) => request(app).delete("/v9/things/1/keep")],
  ["another content type", (app) => request(app).get("/v9/export")],
  ["a stream", (app) => request(app).get("/v9/stream")],
  ["a TsRestResponseError", (app) => request(app).get("/v9/refuse")],
  ["a thrown error", (app) => request(app).get("/v9/break")],
  ["an unknown path", (app) => request(app).get("/v9/nothing")],
  [
    "a pet's body (pinned)",
    (app) => request(app).post("/v9/pets").send({ name: " Rex ", categoryId: 3, status: "sold", id: 9 }),
  ],
  [
    "a pet's body with an Idempotency-Key (the schema)",
    (app) =>
      request(app)
        .post("/v9/pets")
        .set("Idempotency-Key", "k-1")
        .set("X-Other", "kept")
        .send({ name: "Rex", categoryId: 3 }),
  ],
  [
    "a pet's body the schema refuses",
    (app) => request(app).post("/v9/pets").send({ name: " ", categoryId: 1.5, status: "lost" }),
  ],
];

describe.each([false, true])(
  "dispatchOperations answers as ts-rest's createExpressEndpoints does (response validation %s)",
  (responseValidation) => {
    const { tsRest, dispatched } = apps(responseValidation);
    it.each(requests)("%s", async (_name, send) => {
      const [expected, actual] = [await send(tsRest), await send(dispatched)];
      expect(actual.status).toBe(expected.status);
      expect(actual.headers["content-type"]).toBe(expected.headers["content-type"]);
      expect(actual.text).toBe(expected.text);
    });
  },
);

it("the answers differ between the requests (the comparison above is not of two empty answers)", async () => {
  const { dispatched } = apps(false);
  const answers = new Set<string>();
  for (const [, send] of requests) {
    const res = await send(dispatched);
    answers.add(`${res.status} ${res.text}`);
  }
  expect(answers.size).toBeGreaterThanOrEqual(requests.length - 2);
  expect((await request(dispatched).get("/v9/things/0042")).body).toEqual({
    petId: 42,
    extra: "stripped when validated",
  });
  expect((await request(dispatched).get("/v9/things?status=sold&limit=5&after=10")).body).toEqual({
    query: { limit: 5, status: "sold", after: 10 },
  });
});

it("refuses to start with an operation that has no handler, or is in two contracts", () => {
  const options = { responseValidation: false, onInvalidRequest: () => undefined };
  expect(() =>
    dispatchOperations(
      [{ routes: contract, implementation: { ...implementation, getThing: undefined }, pinned: {} }],
      options,
    ),
  ).toThrow(/getThing has no handler/);
  expect(() =>
    dispatchOperations([servedContract(contract, implementation), servedContract(contract, implementation)], options),
  ).toThrow(/listThings is in two contracts/);
});
