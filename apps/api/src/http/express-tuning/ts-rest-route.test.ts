import { initContract } from "@ts-rest/core";
import { createExpressEndpoints, initServer } from "@ts-rest/express";
import express, { type Request } from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answerTsRestFileReads, keepTsRestRouteInLocals } from "./ts-rest-route.js";

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

describe("answerTsRestFileReads", () => {
  it("ts-rest's handler sees no files, and a read of req.files stops at the app's request prototype", async () => {
    const app = express();
    answerTsRestFileReads(app);
    expect(Object.prototype.hasOwnProperty.call(app.request, "files")).toBe(true);
    expect(Object.prototype.hasOwnProperty.call(app.request, "file")).toBe(true);
    createExpressEndpoints(
      contract,
      initServer().router(contract, {
        // ts-rest passes them in its handler's argument, which its types do not declare for a JSON route.
        getThing: async (argument) => {
          const { files, file } = argument as unknown as { files: unknown; file: unknown };
          return { status: 200, body: { path: `${String(files)} ${String(file)}`, own: Object.prototype.hasOwnProperty.call(argument.req, "files") } };
        },
      }),
      app,
    );
    expect((await request(app).get("/things/7").expect(200)).body).toEqual({ path: "undefined undefined", own: false });
  });

  it("leaves a value something else set in their place (a multipart parser would), on the request itself", async () => {
    const app = express();
    answerTsRestFileReads(app);
    app.use((req, _res, next) => {
      (req as unknown as { files: unknown }).files = ["upload"];
      next();
    });
    app.get("/", (req, res) => void res.json({ files: (req as unknown as { files: unknown }).files }));
    expect((await request(app).get("/").expect(200)).body).toEqual({ files: ["upload"] });
  });
});
