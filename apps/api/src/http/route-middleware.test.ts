import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { thingsContract } from "../test/things-contract.js";
import { contractRoutes } from "./contract-routes.js";
import { deprecationHeaders } from "./deprecation-headers.js";
import { matchRoutes } from "./matched-route.js";
import { sendError } from "./errors.js";
import { methodNotAllowed } from "./method-not-allowed.js";

const routes = contractRoutes(thingsContract);

describe("middleware built from the route facts", () => {
  const app = express();
  app.use(matchRoutes(routes), deprecationHeaders(routes));
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
    for (const res of [
      await request(app).get("/v9/things"),
      await request(app).put("/v9/things/1"),
      await request(app).get("/v9/things/1/parts"),
    ]) {
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
