import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { contractRoutes } from "./contract-routes.js";
import { matchedRoute, matchRoutes, unlessRouted } from "./matched-route.js";

/** Answers each request with the operation matched at the top, as the app's later middleware read it. */
function appAnswering(withMatch: boolean) {
  const app = express();
  if (withMatch) app.use(matchRoutes(contractRoutes()));
  app.use((_req, res) => void res.json({ operation: matchedRoute(res)?.operation ?? null }));
  app.use(
    ((error, _req, res, _next) =>
      void res.status(500).json({ message: (error as Error).message })) as express.ErrorRequestHandler,
  );
  return app;
}

describe("matchRoutes: the contract operation a request names, as Express routes it", () => {
  const app = appAnswering(true);
  it.each([
    ["GET", "/v1/pets", "listPets"],
    ["HEAD", "/v1/pets", "listPets"],
    ["GET", "/v1/pets/", "listPets"],
    ["GET", "/V1/Pets", "listPets"],
    ["GET", "/v1/pets?status=sold&limit=3", "listPets"],
    ["POST", "/v1/pets", "createPet"],
    ["POST", "/v1/pets?x=1", "createPet"],
    ["GET", "/v1/pets/7", "getPet"],
    ["GET", "/v1/pets/not-an-id", "getPet"],
    ["PUT", "/v1/pets", null],
    ["OPTIONS", "/v1/pets", null],
    ["POST", "/v1/pets/7", null],
    ["GET", "/v1/pets/7/toys", null],
    ["GET", "/v1/petsx", null],
    ["GET", "/metrics", null],
  ])("%s %s -> %s", async (method, path, operation) => {
    const res = await request(app)[method.toLowerCase() as "get"](path);
    expect(res.status).toBe(200);
    if (method !== "HEAD") expect(res.body).toEqual({ operation });
  });
});

it("reading the match where matchRoutes never ran is a wiring fault, not 'no operation'", async () => {
  const res = await request(appAnswering(false)).get("/v1/pets");
  expect(res.status).toBe(500);
  expect(res.body.message).toMatch(/matchRoutes is not mounted/);
});

describe("unlessRouted: the handlers of paths outside the contract", () => {
  const routes = contractRoutes();
  const answer =
    (name: string): express.RequestHandler =>
    (_req, res) =>
      void res.json({ served: name });
  const app = express();
  app.use(matchRoutes(routes));
  app.use(
    unlessRouted(routes, [
      { paths: ["/healthz", "/readyz"], handler: answer("probes") },
      { paths: ["/v1/openapi.json"], prefixes: ["/docs"], handler: answer("docs") },
    ]),
  );
  app.use((_req, res) => void res.json({ served: "rest of the app" }));

  it.each([
    ["/healthz", "probes"],
    ["/READYZ/", "probes"],
    ["/v1/openapi.json", "docs"],
    ["/docs", "docs"],
    ["/docs/swagger-ui.css", "docs"],
    ["/docsx", "rest of the app"],
    ["/healthz/x", "rest of the app"],
    ["/v1/pets", "rest of the app"],
    ["/v1/pets/7", "rest of the app"],
  ])("GET %s -> %s", async (path, served) => {
    const res = await request(app).get(path);
    expect(res.body).toEqual({ served });
  });

  it.each([
    [{ paths: ["/v1/pets"] }, /GET \/v1\/pets is also the contract operation listPets/],
    [{ paths: [], prefixes: ["/v1/pets/1"] }, /GET \/v1\/pets\/1 is also the contract operation getPet/],
  ])("a path that a contract route also matches is a wiring fault at start (%j)", (paths, message) => {
    expect(() => unlessRouted(routes, [{ ...paths, handler: answer("hidden") }])).toThrow(message);
  });
});
