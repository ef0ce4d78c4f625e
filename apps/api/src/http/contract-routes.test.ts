import { initContract } from "@ts-rest/core";
import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  allowedMethodsByPath,
  contractRoutes,
  deprecationHeaders,
  methodNotAllowed,
  operationMethods,
  operationRequestHeaders,
  routeMatcher,
} from "./contract-routes.js";
import { sendError } from "./errors.js";

// A contract with a route of each kind, so these facts are read from routes, not from petstore's names.
const c = initContract();
const contract = c.router(
  {
    listThings: { method: "GET", path: "/things", responses: { 200: z.array(z.string()) } },
    addThing: {
      method: "POST",
      path: "/things",
      body: z.object({ name: z.string() }),
      headers: z.object({ "x-trace-token": z.string().optional() }),
      responses: { 201: z.string() },
    },
    uploadThing: { method: "PUT", path: "/things/:id", contentType: "multipart/form-data", body: c.type<unknown>(), responses: { 204: c.noBody() } },
    oldThing: {
      method: "GET",
      path: "/things/:id",
      deprecated: true,
      metadata: { deprecation: { deprecatedAt: new Date("2026-01-01T00:00:00Z"), sunsetAt: new Date("2030-12-05T00:00:00Z"), successor: "/v9/things" } },
      responses: { 200: z.string() },
    },
  },
  { pathPrefix: "/v9" },
);
const routes = contractRoutes(contract);

describe("route facts read from the contract", () => {
  it("knows each operation's method and prefixed path, and which take a JSON body", () => {
    expect(routes.map(({ operation, method, path, takesJsonBody }) => ({ operation, method, path, takesJsonBody }))).toEqual([
      { operation: "listThings", method: "GET", path: "/v9/things", takesJsonBody: false },
      { operation: "addThing", method: "POST", path: "/v9/things", takesJsonBody: true },
      { operation: "uploadThing", method: "PUT", path: "/v9/things/:id", takesJsonBody: false },
      { operation: "oldThing", method: "GET", path: "/v9/things/:id", takesJsonBody: false },
    ]);
  });

  it("lists each path's methods: HEAD with GET, OPTIONS always", () => {
    expect(Object.fromEntries(allowedMethodsByPath(routes))).toEqual({
      "/v9/things": ["GET", "HEAD", "OPTIONS", "POST"],
      "/v9/things/:id": ["GET", "HEAD", "OPTIONS", "PUT"],
    });
  });

  it("gives CORS the operations' methods and declared request headers", () => {
    expect(operationMethods(routes)).toEqual(["GET", "POST", "PUT"]);
    expect(operationRequestHeaders(routes)).toEqual(["Authorization", "Content-Type", "X-Trace-Token"]);
  });

  it("the petstore contract: GET/POST /v1/pets, GET /v1/pets/:petId deprecated, createPet alone takes JSON", () => {
    const petstore = contractRoutes();
    expect(petstore.map(({ operation, method, path, takesJsonBody, deprecation }) => [operation, method, path, takesJsonBody, deprecation !== undefined])).toEqual([
      ["listPets", "GET", "/v1/pets", false, false],
      ["createPet", "POST", "/v1/pets", true, false],
      ["getPet", "GET", "/v1/pets/:petId", false, true],
    ]);
  });
});

describe("middleware built from the route facts", () => {
  const app = express();
  app.use(deprecationHeaders(routes));
  app.get("/v9/things/:id", (_req, res) => {
    res.send("ok");
  });
  app.get("/v9/things", (_req, res) => {
    res.send("ok");
  });
  app.use(methodNotAllowed(routes));
  app.use(sendError);

  it("a deprecated route's responses carry Deprecation, Sunset and the successor Link from its metadata", async () => {
    const res = await request(app).get("/v9/things/1");
    expect(res.headers["deprecation"]).toBe("@1767225600");
    expect(res.headers["sunset"]).toBe("Thu, 05 Dec 2030 00:00:00 GMT");
    expect(res.headers["link"]).toBe('</v9/things>; rel="successor-version"');
  });

  it("so do HEAD, another letter case and a trailing slash, as Express routes them", async () => {
    for (const res of [await request(app).head("/v9/things/1"), await request(app).get("/V9/Things/1/")]) {
      expect(res.status).toBe(200);
      expect(res.headers["deprecation"]).toBe("@1767225600");
    }
  });

  it("other routes carry none of them, nor another method on the deprecated route's path", async () => {
    for (const res of [await request(app).get("/v9/things"), await request(app).put("/v9/things/1"), await request(app).get("/v9/things/1/parts")]) {
      expect(res.headers["deprecation"]).toBeUndefined();
      expect(res.headers["sunset"]).toBeUndefined();
    }
  });

  it("a method the path does not serve is 405 with the path's Allow", async () => {
    const res = await request(app).delete("/v9/things/1");
    expect(res.status).toBe(405);
    expect(res.headers["allow"]).toBe("GET, HEAD, OPTIONS, PUT");
    expect(res.body).toMatchObject({ code: "METHOD_NOT_ALLOWED", status: 405 });
  });
});

describe("routeMatcher", () => {
  const routeOf = routeMatcher(routes);
  it.each([
    ["GET", "/v9/things", "listThings"],
    ["HEAD", "/v9/things", "listThings"],
    ["GET", "/v9/things/", "listThings"],
    ["POST", "/V9/THINGS", "addThing"],
    ["PUT", "/v9/things/7", "uploadThing"],
    ["GET", "/v9/things/a.b", "oldThing"],
    ["HEAD", "/v9/things/7", "oldThing"],
    ["DELETE", "/v9/things/7", undefined],
    ["GET", "/v9/things/7/x", undefined],
    ["GET", "/v9/thingsx", undefined],
    ["GET", "/v9//things", undefined],
  ])("%s %s -> %s", (method, path, operation) => {
    expect(routeOf(method, path)?.operation).toBe(operation);
  });
});
