import Sqlite from "better-sqlite3";
import request from "supertest";
import { sqliteFilePath } from "./base/database-url.js";
import { expectError } from "./test/expect-error.js";
import { afterEach, describe, expect, it } from "vitest";
import { bearer, createTestApp, TEST_KEY, type TestApp } from "./test/test-app.js";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
async function start(env: Record<string, string> = {}) {
  t = await createTestApp(env);
  return t;
}

describe("errors outside the operations are the Error JSON, never an HTML page", () => {
  it("404 for an unknown route, with or without /v1", async () => {
    const { app } = await start();
    expectError(await request(app).get("/nope"), 404, "NOT_FOUND");
    expectError(await request(app).get("/v1/nope").set("Authorization", bearer()), 404, "NOT_FOUND");
    expectError(await request(app).get("/v1/pets/1/extra").set("Authorization", bearer()), 404, "NOT_FOUND");
  });

  it("405 with Allow for a method a known path does not support", async () => {
    const { app } = await start();
    const onList = await request(app).delete("/v1/pets").set("Authorization", bearer());
    expectError(onList, 405, "METHOD_NOT_ALLOWED");
    expect(onList.headers["allow"]).toBe("GET, HEAD, OPTIONS, POST");
    const onPet = await request(app).put("/v1/pets/1").set("Authorization", bearer()).send({});
    expectError(onPet, 405, "METHOD_NOT_ALLOWED");
    // Pets that change (beyond the spec) added PATCH and DELETE on a pet (updatePet, deletePet).
    expect(onPet.headers["allow"]).toBe("DELETE, GET, HEAD, OPTIONS, PATCH");
  });

  it("500 on a server fault: Error JSON with a request id, no stack or SQL; the fault is logged", async () => {
    const { app, config, logs } = await start();
    // A genuine fault from the database layer: the table is gone.
    const raw = new Sqlite(sqliteFilePath(config.databaseUrl));
    raw.exec('DROP TABLE "Pet"');
    raw.close();
    const response = await request(app).get("/v1/pets").set("Authorization", bearer());
    if (response.status !== 500) return expect.fail(`expected 500, got ${response.status}`);
    const error = expectError(response, 500, "INTERNAL");
    const requestId = response.headers["x-request-id"] as string;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.message).toContain(requestId);
    expect(JSON.stringify(response.body)).not.toMatch(/at .*\.(ts|js)|SELECT|prisma/i);
    expect(logs.some((line) => line.includes('"level":50') && line.includes(requestId))).toBe(true);
    // req.log (the fault's own line) carries the request, as req.id names it in the body.
    const fault = logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line["msg"] === "unhandled error");
    expect(fault).toMatchObject({ level: 50, req: { id: requestId, method: "GET", url: "/v1/pets" } });
  });
});

describe("documentation and probes", () => {
  it("serves the OpenAPI document without a key", async () => {
    const { app } = await start({ PUBLIC_URL_PRODUCTION: "https://prod.example.org/v1" });
    const response = await request(app).get("/v1/openapi.json").expect(200);
    expect(response.body.info.version).toBe("1.0.0");
    expect(response.body.servers[0].url).toBe("https://prod.example.org/v1");
    expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(["/pets", "/pets/{petId}"]));
  });

  it("the documents' servers: in development this API, relative (so /docs calls the origin it is on), in production the configured ones in order", async () => {
    const development = await start();
    const servers = async (path: string) =>
      (await request(t!.app).get(path).expect(200)).body.servers as Array<{ url: string; description: string }>;
    const urls = async (path: string) => (await servers(path)).map(({ url, description }) => `${description} ${url}`);
    expect(development.config.nodeEnv).toBe("test");
    expect(await urls("/v1/openapi.json")).toEqual(["development /v1"]);
    expect(await urls("/admin/v1/openapi.json")).toEqual(["development /admin/v1"]);
    // Swagger UI's "Try it out" calls the page's own origin: the /docs page's CSP connects there and nowhere else.
    expect((await request(t!.app).get("/docs/").expect(200)).headers["content-security-policy"]).toContain(
      "connect-src 'self';",
    );
    await t!.close();
    t = undefined;
    t = await createTestApp({
      NODE_ENV: "production",
      API_KEYS: TEST_KEY,
      SEED: "false",
      PUBLIC_URL_PRODUCTION: "https://api.example-store.com/v1",
      PUBLIC_URL_STAGING: "https://staging.example-store.com/api/v1",
    });
    expect(await urls("/v1/openapi.json")).toEqual([
      "production https://api.example-store.com/v1",
      "staging https://staging.example-store.com/api/v1",
    ]);
    expect(await urls("/admin/v1/openapi.json")).toEqual([
      "production https://api.example-store.com/admin/v1",
      "staging https://staging.example-store.com/api/admin/v1",
    ]);
    expect((await request(t.app).get("/docs/").expect(200)).headers["content-security-policy"]).toContain(
      "connect-src 'self' https://api.example-store.com https://staging.example-store.com;",
    );
  });

  it("serves interactive docs at /docs", async () => {
    const { app } = await start();
    const response = await request(app).get("/docs/").expect(200);
    expect(response.headers["content-type"]).toMatch(/text\/html/);
    expect(response.text).toContain("swagger-ui");
  });

  it("/healthz is up and /readyz reports the database, without a key", async () => {
    const { app } = await start();
    expect((await request(app).get("/healthz").expect(200)).body).toEqual({ status: "ok" });
    expect((await request(app).get("/readyz").expect(200)).body).toEqual({ status: "ok", database: "sqlite" });
  });

  it("/readyz is 503 while the database cannot be reached, /healthz stays up", async () => {
    // Nothing listens on port 1: the database is down, the process is not.
    const { app } = await start({ DATABASE_URL: "postgresql://postgres@127.0.0.1:1/petstore" });
    expect((await request(app).get("/healthz").expect(200)).body).toEqual({ status: "ok" });
    expectError(await request(app).get("/readyz"), 503, "UNAVAILABLE");
  });
});

describe("HTTP hardening", () => {
  it("sets security headers and hides x-powered-by", async () => {
    const { app } = await start();
    const response = await request(app).get("/v1/pets").set("Authorization", bearer());
    expect(response.headers["x-powered-by"]).toBeUndefined();
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["content-security-policy"]).toBeDefined();
  });

  it("CORS: a preflight from the admin origin is 204 before any key check; other origins get no CORS headers", async () => {
    const { app } = await start({ CORS_ORIGIN: "http://127.0.0.1:5173" });
    const preflight = await request(app)
      .options("/v1/pets")
      .set("Origin", "http://127.0.0.1:5173")
      .set("Access-Control-Request-Method", "POST")
      .set("Access-Control-Request-Headers", "authorization,content-type");
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("http://127.0.0.1:5173");
    // Every method of both contracts: the access contract's webhook routes add DELETE and PATCH.
    expect(preflight.headers["access-control-allow-methods"]).toBe("DELETE,GET,PATCH,POST");
    expect(preflight.headers["access-control-allow-headers"]).toBe(
      "Authorization,Content-Type,Idempotency-Key,Last-Event-ID",
    );
    const get = await request(app)
      .get("/v1/pets")
      .set("Origin", "http://127.0.0.1:5173")
      .set("Authorization", bearer());
    expect(get.headers["access-control-expose-headers"]).toContain("Link");
    const foreign = await request(app)
      .get("/v1/pets")
      .set("Origin", "http://evil.example")
      .set("Authorization", bearer());
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
    // No Origin: not a cross-origin request, so no CORS header; the answer still varies by Origin.
    const sameOrigin = await request(app).get("/v1/pets").set("Authorization", bearer());
    expect(Object.keys(sameOrigin.headers).filter((name) => name.startsWith("access-control-"))).toEqual([]);
    expect(sameOrigin.headers["vary"]).toBe("Origin");
  });

  it("one JSON line per request: its id (the X-Request-Id sent), method, URL, status and time", async () => {
    const { app, logs } = await start();
    const ok = await request(app).get("/v1/pets?limit=2").set("Authorization", bearer());
    const denied = await request(app).get("/v1/pets").set("Authorization", "Bearer some-guess");
    const lines = logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => "res" in line);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 30,
      service: "petstore-api",
      req: { id: ok.headers["x-request-id"], method: "GET", url: "/v1/pets?limit=2" },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
      msg: "request completed",
    });
    expect(lines[1]).toMatchObject({
      level: 40,
      req: { id: denied.headers["x-request-id"] },
      res: { statusCode: 401 },
    });
  });

  it("never writes the API key or the Authorization header to the log", async () => {
    const { app, logs } = await start();
    await request(app).get("/v1/pets").set("Authorization", bearer());
    await request(app).get("/v1/pets").set("Authorization", "Bearer some-guess");
    await request(app).post("/v1/pets").set("Authorization", bearer()).send({ name: "x", categoryId: 1 });
    expect(logs.length).toBeGreaterThanOrEqual(3);
    const all = logs.join("\n");
    expect(all).not.toContain(TEST_KEY);
    expect(all).not.toContain("some-guess");
    expect(all.toLowerCase()).not.toContain("authorization");
  });
});

describe("abuse limits", () => {
  it("429 with Retry-After when one key goes over RATE_LIMIT_PER_MIN", async () => {
    const { app } = await start({ RATE_LIMIT_PER_MIN: "3" });
    for (let i = 0; i < 3; i++) await request(app).get("/v1/pets").set("Authorization", bearer()).expect(200);
    const limited = await request(app).get("/v1/pets").set("Authorization", bearer());
    expectError(limited, 429, "RATE_LIMITED");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("429 for an address's missing or invalid keys after AUTH_FAILURES_PER_MIN 401s; its valid key is still served", async () => {
    const { app } = await start({ AUTH_FAILURES_PER_MIN: "2" });
    for (let i = 0; i < 2; i++)
      expectError(await request(app).get("/v1/pets").set("Authorization", "Bearer guess"), 401, "UNAUTHORIZED");
    for (const blocked of [
      await request(app).get("/v1/pets").set("Authorization", "Bearer guess"),
      await request(app).get("/v1/pets"),
      await request(app).post("/v1/pets").set("Authorization", "Basic eDp5").send({ name: "x", categoryId: 1 }),
    ]) {
      expectError(blocked, 429, "RATE_LIMITED");
      expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(blocked.headers["retry-after"])).toBeLessThanOrEqual(60);
    }
  });

  it("failures from an address never refuse a valid key from it: 5 bad keys, then the right one is 200", async () => {
    const { app } = await start({ AUTH_FAILURES_PER_MIN: "2" });
    for (let i = 0; i < 5; i++) {
      const response = await request(app).get("/v1/pets").set("Authorization", `Bearer guess-${i}`);
      expect([401, 429]).toContain(response.status);
    }
    await request(app).get("/v1/pets").set("Authorization", bearer()).expect(200);
    await request(app).post("/v1/pets").set("Authorization", bearer()).send({ name: "Rex", categoryId: 1 }).expect(201);
  });
});

describe("client address (TRUST_PROXY)", () => {
  const failFrom = (app: TestApp["app"], forwardedFor?: string) => {
    const call = request(app).get("/v1/pets").set("Authorization", "Bearer guess");
    return forwardedFor === undefined ? call : call.set("X-Forwarded-For", forwardedFor);
  };

  it("unset: the socket address counts, and a forged X-Forwarded-For neither helps nor hurts", async () => {
    const { app } = await start({ AUTH_FAILURES_PER_MIN: "2" });
    // A new forged address per try does not buy a fresh budget...
    expectError(await failFrom(app, "203.0.113.1"), 401, "UNAUTHORIZED");
    expectError(await failFrom(app, "203.0.113.2"), 401, "UNAUTHORIZED");
    expectError(await failFrom(app, "203.0.113.3"), 429, "RATE_LIMITED");
    expectError(await failFrom(app), 429, "RATE_LIMITED");
    // ...and naming a blocked address does not block a valid key.
    await request(app).get("/v1/pets").set("Authorization", bearer()).set("X-Forwarded-For", "203.0.113.1").expect(200);
  });

  it("loopback: behind a local proxy, each forwarded client has its own budget", async () => {
    const { app } = await start({ AUTH_FAILURES_PER_MIN: "2", TRUST_PROXY: "loopback" });
    expectError(await failFrom(app, "203.0.113.1"), 401, "UNAUTHORIZED");
    expectError(await failFrom(app, "203.0.113.1"), 401, "UNAUTHORIZED");
    expectError(await failFrom(app, "203.0.113.1"), 429, "RATE_LIMITED");
    // Another client behind the same proxy is not locked out by the first one's failures.
    expectError(await failFrom(app, "203.0.113.2"), 401, "UNAUTHORIZED");
    // The client is the address the trusted proxy saw: a forged left-most entry is not believed.
    expectError(await failFrom(app, "198.51.100.9, 203.0.113.1"), 429, "RATE_LIMITED");
  });

  it("a hop count trusts that many proxies", async () => {
    const { app } = await start({ AUTH_FAILURES_PER_MIN: "1", TRUST_PROXY: "1" });
    expectError(await failFrom(app, "198.51.100.1, 203.0.113.7"), 401, "UNAUTHORIZED");
    expectError(await failFrom(app, "198.51.100.2, 203.0.113.7"), 429, "RATE_LIMITED");
    expectError(await failFrom(app, "203.0.113.8"), 401, "UNAUTHORIZED");
  });
});
