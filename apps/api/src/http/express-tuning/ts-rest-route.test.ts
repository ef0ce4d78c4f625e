import { initContract } from "@ts-rest/core";
import { createExpressEndpoints, initServer } from "@ts-rest/express";
import express, { type Request } from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { keepTsRestRouteInLocals } from "./ts-rest-route.js";

const c = initContract();
const contract = c.router({
  getThing: { method: "GET", path: "/things/:id", pathParams: z.object({ id: z.string() }), responses: { 200: z.object({ path: z.string(), own: z.boolean() }) } },
});

/** `req.tsRestRoute` on a plain Express route, where the types do not declare it. */
const routeField = (req: Request) => req as unknown as { tsRestRoute?: unknown };

describe("keepTsRestRouteInLocals", () => {
  it("req.tsRestRoute still reads the route ts-rest set, from middleware and handler, without an own property on the request", async () => {
    const app = express();
    keepTsRestRouteInLocals(app);
    const seenByMiddleware: unknown[] = [];
    createExpressEndpoints(
      contract,
      initServer().router(contract, {
        getThing: {
          middleware: [
            (req, _res, next) => {
              seenByMiddleware.push(req.tsRestRoute);
              next();
            },
          ],
          handler: async ({ req }) => ({
            status: 200,
            body: { path: req.tsRestRoute.path, own: Object.prototype.hasOwnProperty.call(req, "tsRestRoute") },
          }),
        },
      }),
      app,
    );
    const response = await request(app).get("/things/7").expect(200);
    expect(response.body).toEqual({ path: "/things/:id", own: false });
    expect(seenByMiddleware).toEqual([contract.getThing]);
  });

  it("each request reads its own route", async () => {
    const app = express();
    keepTsRestRouteInLocals(app);
    let first: Request | undefined;
    app.get("/a", (req, res) => {
      first = req;
      routeField(req).tsRestRoute = "a";
      res.end();
    });
    app.get("/b", (req, res) => {
      res.json({ b: routeField(req).tsRestRoute ?? null, a: first ? (routeField(first).tsRestRoute ?? null) : null });
    });
    await request(app).get("/a").expect(200);
    expect((await request(app).get("/b").expect(200)).body).toEqual({ b: null, a: "a" });
  });

  it("a request object with no response yet keeps the value as its own property", () => {
    const app = express();
    keepTsRestRouteInLocals(app);
    const req = Object.create(app.request) as { tsRestRoute: unknown };
    req.tsRestRoute = "route";
    expect(req.tsRestRoute).toBe("route");
    expect(Object.prototype.hasOwnProperty.call(req, "tsRestRoute")).toBe(true);
  });
});
