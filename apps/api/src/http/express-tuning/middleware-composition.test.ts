import express, { Router } from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { isOneOf, isUnder, onlyFor, series } from "./middleware-composition.js";

describe("onlyFor", () => {
  const seen: string[] = [];
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.send("router");
  });
  router.use((req, _res, next) => {
    seen.push(req.path);
    next();
  });
  const app = express();
  app.use(onlyFor(isOneOf("/healthz", "/readyz"), router));
  app.use((_req, res) => {
    res.send("after");
  });

  it("enters the handler for its paths, as Express matches them (any case, one trailing slash)", async () => {
    expect((await request(app).get("/healthz")).text).toBe("router");
    expect((await request(app).get("/HEALTHZ/")).text).toBe("router");
  });

  it("lets every other request pass without entering it", async () => {
    seen.length = 0;
    expect((await request(app).get("/pets")).text).toBe("after");
    expect((await request(app).get("/healthzz")).text).toBe("after");
    expect(seen).toEqual([]);
  });

  it("isUnder matches the prefix itself and what is below it, not a longer name", () => {
    const underV1 = isUnder("/v1");
    expect([underV1("/v1"), underV1("/v1/pets"), underV1("/v10"), underV1("/v")]).toEqual([true, true, false, false]);
  });
});

describe("series", () => {
  it("runs the handlers in order as one layer, then the app's next layer", async () => {
    const app = express();
    app.use(
      series(
        (_req, res, next) => {
          res.setHeader("X-Order", "a");
          next();
        },
        (_req, res, next) => {
          res.setHeader("X-Order", `${String(res.getHeader("X-Order"))}b`);
          next("route");
        },
      ),
    );
    app.use((_req, res) => {
      res.send("end");
    });
    const res = await request(app).get("/");
    expect(res.text).toBe("end");
    expect(res.headers["x-order"]).toBe("ab");
  });

  it("an error passed or thrown skips the rest and reaches the error handlers", async () => {
    const app = express();
    let reachedThird = false;
    app.use(
      series(
        () => {
          throw new Error("boom");
        },
        (_req, _res, next) => {
          reachedThird = true;
          next();
        },
      ),
    );
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(418).send(error.message);
    });
    const res = await request(app).get("/");
    expect([res.status, res.text, reachedThird]).toEqual([418, "boom", false]);
  });
});
