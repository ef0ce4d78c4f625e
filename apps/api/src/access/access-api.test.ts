import {
  adminContract,
  type ApiKey,
  ApiKeys,
  AuditEvents,
  CreatedApiKey,
  LIST_KEYS_MAX,
  OPERATION_CREDENTIALS,
  OPERATION_SCOPES,
  operationsOf,
  v1Contract,
  SCOPES,
  scopeCovers,
  type AnyOperationName,
  type OperationName,
  type Scope,
} from "@petstore/contract";
import type { AppRoute } from "@ts-rest/core";
import Sqlite from "better-sqlite3";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import express from "express";
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { openDatabase, type Database } from "../database.js";
import { sqliteFilePath } from "../base/database-url.js";
import { createLogger } from "../ops/logger.js";
import { expectError } from "../test/expect-error.js";
import { bearer, configuredKeyIdOn, createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import type { OperationDispatch } from "../http/operation-dispatch.js";

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");

/** Runs SQL on the test database directly, outside the API (to break it on purpose, or to read what it stored). */
async function runSql<T = Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  if (url.startsWith("file:")) {
    const db = new Sqlite(sqliteFilePath(url));
    try {
      const statement = db.prepare(sql);
      return (statement.reader ? statement.all() : (statement.run(), [])) as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A second API process's app on the same database: another replica, in this process. */
async function secondReplica(t: TestApp) {
  const logger = createLogger(t.config, { write: () => {} });
  const database: Database = await openDatabase({ url: t.config.databaseUrl, poolSize: 2 });
  return { app: createApp({ config: t.config, logger, database }), close: () => database.close() };
}

/**
 * One request per operation of both contracts, derived from the routes themselves (every path
 * parameter 999999, an empty JSON object as body): a new operation is covered without a line here.
 */
const SAMPLE_REQUESTS = (
  Object.entries({ ...operationsOf(v1Contract), ...operationsOf(adminContract) }) as unknown as Array<
    [OperationName, AppRoute]
  >
)
  .filter(([operation]) => operation in OPERATION_SCOPES)
  .map(([operation, route]) => {
    const path = route.path.replace(/:[A-Za-z]+/g, "999999");
    const send = (api: ReturnType<typeof request>, auth: string) => {
      const test = withoutStream(
        api[route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete"](path).set("Authorization", auth),
        path,
      );
      return route.method === "GET" ? test : test.send({});
    };
    return { operation, send };
  });

/**
 * A request to the event stream stays open for as long as the stream: past the scope check, a malformed
 * `Last-Event-ID` makes it a 400 instead, which these tests take as "the operation's own answer".
 */
function withoutStream<T extends request.Test>(test: T, path: string): T {
  return path.endsWith("/events/stream") ? test.set("Last-Event-ID", "not-a-position") : test;
}

/** Each contract operation by `METHOD path` as Express registers it (`GET /v1/pets/:petId`). */
const OPERATION_BY_ROUTE = new Map(
  (
    Object.entries({ ...operationsOf(v1Contract), ...operationsOf(adminContract) }) as unknown as Array<
      [AnyOperationName, AppRoute]
    >
  ).map(([operation, route]) => [`${route.method} ${route.path}`, operation]),
);

/** `METHOD path` of every route registered on an Express app under /v1 or /admin/v1 (Express 4 keeps them in `_router.stack`). */
function apiRoutesOf(app: express.Express): string[] {
  type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: Partial<OperationDispatch> };
  const stack = (app as unknown as { _router?: { stack: Layer[] } })._router?.stack ?? [];
  // Routes registered on the app, and the contract operations the dispatch layer serves.
  const routes = stack.flatMap(({ route, handle }) =>
    route
      ? Object.keys(route.methods)
          .filter((method) => method !== "_all")
          .map((method) => `${method.toUpperCase()} ${route.path}`)
      : (handle?.routes ?? []),
  );
  return routes.filter((route) => /^[A-Z]+ \/(admin\/)?v1(\/|$)/.test(route));
}

/**
 * The routes of `app` under /v1 or /admin/v1 that name no operation of OPERATION_CREDENTIALS, or a bearer one
 * missing from OPERATION_SCOPES: the key check would give them no credential or no scope.
 */
const routesOutsideScopeTable = (app: express.Express) =>
  apiRoutesOf(app).filter((route) => {
    const operation = OPERATION_BY_ROUTE.get(route);
    if (operation === undefined || !(operation in OPERATION_CREDENTIALS)) return true;
    const credential = OPERATION_CREDENTIALS[operation];
    return credential !== "cookie" && credential !== "none" && !(operation in OPERATION_SCOPES);
  });

describe("the scope table's inventory check", () => {
  it("reports a route under /v1 or /admin/v1 that names no operation of the table", () => {
    const app = express();
    app.get("/v1/pets", () => {});
    app.get("/v1/pets/:petId/photos", () => {});
    app.delete("/admin/v1/keys/:keyId", () => {});
    app.get("/healthz", () => {});
    expect(routesOutsideScopeTable(app)).toEqual(["GET /v1/pets/:petId/photos", "DELETE /admin/v1/keys/:keyId"]);
  });
});

describe.each(TEST_PROVIDERS)("staff access on %s", (provider) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({}, provider);
  });
  afterEach(async () => {
    await t.close();
  });

  const api = () => request(t.app);
  const asAdmin = bearer(); // a configured key: scope admin
  async function issue(scope: Scope, extra: Record<string, unknown> = {}, app = t.app) {
    const response = await request(app)
      .post("/admin/v1/keys")
      .set("Authorization", asAdmin)
      .send({ name: `${scope} key`, scope, ...extra });
    expect(response.status).toBe(201);
    return CreatedApiKey.parse(response.body);
  }
  const events = async (query = "") =>
    AuditEvents.parse(
      (await api().get(`/admin/v1/audit-events${query}`).set("Authorization", asAdmin).expect(200)).body,
    );

  it("creates a key: psk_ and 43 base64url characters, shown once; its prefix is the first 12; the list never shows a secret", async () => {
    const { key, secret } = await issue("write");
    expect(secret).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
    expect(key).toMatchObject({
      name: "write key",
      scope: "write",
      prefix: secret.slice(0, 12),
      createdBy: "Configured key 1",
      revokedAt: null,
    });
    const listed = (await api().get("/admin/v1/keys").set("Authorization", asAdmin).expect(200)).body as ApiKey[];
    expect(listed).toEqual([key]);
    expect(JSON.stringify(listed)).not.toContain(secret.slice(12));
    const session = await api().get("/admin/v1/session").set("Authorization", `Bearer ${secret}`).expect(200);
    expect(session.body).toEqual({
      keyId: String(key.id),
      staffId: null,
      name: "write key",
      scope: "write",
      expiresAt: null,
    });
    const configured = await api().get("/admin/v1/session").set("Authorization", asAdmin).expect(200);
    // A configured key is named by its fingerprint under the deployment's salt, not by its position in API_KEYS.
    expect(configured.body).toEqual({
      keyId: await configuredKeyIdOn(t.database),
      staffId: null,
      name: "Configured key 1",
      scope: "admin",
      expiresAt: null,
    });
  });

  it("enforces every operation's scope for every scope (403 FORBIDDEN, insufficient_scope), derived from both contracts", async () => {
    expect(SAMPLE_REQUESTS.map(({ operation }) => operation).sort()).toEqual(Object.keys(OPERATION_SCOPES).sort());
    const secrets = Object.fromEntries(
      await Promise.all(SCOPES.map(async (scope) => [scope, (await issue(scope)).secret] as const)),
    );
    for (const scope of SCOPES) {
      for (const { operation, send } of SAMPLE_REQUESTS) {
        const needed = OPERATION_SCOPES[operation];
        const response = await send(api(), `Bearer ${secrets[scope]}`);
        if (OPERATION_CREDENTIALS[operation] === "personToken") {
          // A person's operation: no key may call it, whatever its scope.
          expectError(response, 403, "FORBIDDEN");
          expect(response.headers["www-authenticate"], `${scope} ${operation}`).toBe(
            'Bearer realm="petstore", error="insufficient_scope"',
          );
        } else if (scopeCovers(scope, needed)) {
          // Past the key check: the operation's own answer (an empty body is a 400, an unknown id a 404).
          expect([200, 201, 400, 404], `${scope} ${operation}`).toContain(response.status);
        } else {
          expectError(response, 403, "FORBIDDEN");
          expect(response.headers["www-authenticate"], `${scope} ${operation}`).toBe(
            `Bearer realm="petstore", error="insufficient_scope", scope="${needed}"`,
          );
        }
      }
    }
    // Configured keys are admin: everything is allowed but a person's operations.
    for (const { operation, send } of SAMPLE_REQUESTS) {
      expect(OPERATION_CREDENTIALS[operation] === "personToken" ? [403] : [200, 201, 400, 404], operation).toContain(
        (await send(api(), asAdmin)).status,
      );
    }
  });

  it("every route the app registers under /v1 and /admin/v1 is in the scope table; a read key's request to each passes the scope check or gets the 403 the table says", async () => {
    const routes = apiRoutesOf(t.app);
    expect(routesOutsideScopeTable(t.app)).toEqual([]);
    // Every operation of the table is registered, once.
    expect(routes.map((route) => OPERATION_BY_ROUTE.get(route)).sort()).toEqual(
      Object.keys(OPERATION_CREDENTIALS).sort(),
    );
    const { secret } = await issue("read");
    for (const route of routes) {
      const [method = "", path = ""] = route.split(" ");
      const operation = OPERATION_BY_ROUTE.get(route)!;
      // Cookie and sign-in routes take no bearer: the credential tests below cover them.
      if (!(operation in OPERATION_SCOPES)) continue;
      const needed = OPERATION_SCOPES[operation as OperationName];
      if (OPERATION_CREDENTIALS[operation] === "personToken") {
        const refused = await api()
          [method.toLowerCase() as "get" | "post"](path.replace(/:[A-Za-z]+/g, "999999"))
          .set("Authorization", `Bearer ${secret}`);
        expectError(refused, 403, "FORBIDDEN");
        continue;
      }
      const call = withoutStream(
        api()
          [method.toLowerCase() as "get" | "post"](path.replace(/:[A-Za-z]+/g, "999999"))
          .set("Authorization", `Bearer ${secret}`),
        path,
      );
      const response = method === "GET" ? await call : await call.send({});
      if (scopeCovers("read", needed)) {
        expect([200, 201, 400, 404], route).toContain(response.status);
      } else {
        expectError(response, 403, "FORBIDDEN");
        expect(response.headers["www-authenticate"], route).toBe(
          `Bearer realm="petstore", error="insufficient_scope", scope="${needed}"`,
        );
      }
    }
  });

  it("enforces a read key's scope however the request target is written (absolute form, fragment, case, trailing slash)", async () => {
    const { secret } = await issue("read");
    const server = t.app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as AddressInfo;
    // node:http sends the target as given: supertest would normalise it.
    const post = (target: string) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ name: "Scoped", categoryId: 1 });
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port,
            method: "POST",
            path: target,
            headers: {
              authorization: `Bearer ${secret}`,
              "content-type": "application/json",
              "content-length": Buffer.byteLength(body),
            },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    try {
      for (const target of [
        `http://127.0.0.1:${port}/v1/pets`,
        "/v1/pets#fragment",
        "/V1/PETS",
        "/v1/pets/",
        "/v1/pets?x=1",
      ]) {
        expect(await post(target), target).toBe(403);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect((await api().get("/v1/pets").set("Authorization", asAdmin)).body).toEqual([]);
  });

  it("a 403 spends the key's per-key rate budget like any request", async () => {
    const limited = await createTestApp({ RATE_LIMIT_PER_MIN: "3" }, provider);
    try {
      const created = await request(limited.app)
        .post("/admin/v1/keys")
        .set("Authorization", asAdmin)
        .send({ name: "till", scope: "read" })
        .expect(201);
      const asReader = `Bearer ${CreatedApiKey.parse(created.body).secret}`;
      for (let i = 0; i < 3; i++) {
        const forbidden = await request(limited.app)
          .post("/v1/pets")
          .set("Authorization", asReader)
          .send({ name: "Rex", categoryId: 1 });
        expectError(forbidden, 403, "FORBIDDEN");
        expect(forbidden.headers["ratelimit"], `403 number ${i + 1} says what is left`).toMatch(
          new RegExp(`r=${2 - i}\\b`),
        );
      }
      // The budget is spent: neither an allowed request nor another forbidden one gets through.
      expectError(await request(limited.app).get("/v1/pets").set("Authorization", asReader), 429, "RATE_LIMITED");
      expectError(
        await request(limited.app).post("/v1/pets").set("Authorization", asReader).send({ name: "Rex", categoryId: 1 }),
        429,
        "RATE_LIMITED",
      );
    } finally {
      await limited.close();
    }
  });

  it("a 403 stores nothing: a read key's createPet adds no pet and no event", async () => {
    const { secret } = await issue("read");
    const before = await events();
    expectError(
      await api().post("/v1/pets").set("Authorization", `Bearer ${secret}`).send({ name: "Scoped", categoryId: 1 }),
      403,
      "FORBIDDEN",
    );
    expect((await api().get("/v1/pets").set("Authorization", asAdmin)).body).toEqual([]);
    expect(await events()).toEqual(before);
  });

  it("revocation takes effect at once on this replica, and within 2 s on another (measured)", async () => {
    const replica = await secondReplica(t);
    try {
      const { key, secret } = await issue("read");
      const auth = `Bearer ${secret}`;
      // The new key works on the other replica within 2 s, too.
      const createdAt = Date.now();
      await expect
        .poll(async () => (await request(replica.app).get("/v1/pets").set("Authorization", auth)).status, {
          timeout: 2_000,
          interval: 20,
        })
        .toBe(200);
      console.log(`[${provider}] a new key worked on the other replica after ${Date.now() - createdAt} ms`);

      const revoked = await api().post(`/admin/v1/keys/${key.id}/revoke`).set("Authorization", asAdmin).expect(200);
      const revokedAt = Date.now();
      expect(revoked.body.revokedAt).not.toBeNull();
      expectError(await api().get("/v1/pets").set("Authorization", auth), 401, "UNAUTHORIZED");
      let lag = 0;
      for (;;) {
        const status = (await request(replica.app).get("/v1/pets").set("Authorization", auth)).status;
        lag = Date.now() - revokedAt;
        if (status === 401) break;
        expect(lag).toBeLessThan(2_000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      console.log(`[${provider}] revocation took effect on the other replica after ${lag} ms`);
      expect(lag).toBeLessThan(2_000);

      // Revoking again answers the same key, with the same revokedAt, and adds no event.
      const again = await api()
        .post(`/admin/v1/keys/${key.id}/revoke`)
        .set("Authorization", asAdmin)
        .send({})
        .expect(200);
      expect(again.body).toMatchObject({ id: key.id, revokedAt: revoked.body.revokedAt });
      expect((await events("?action=key.revoked")).length).toBe(1);
    } finally {
      await replica.close();
    }
  });

  it("an expired key is refused within 1 s of its expiresAt", async () => {
    const expiresAt = new Date(Date.now() + 1_500);
    const { secret } = await issue("read", { expiresAt: expiresAt.toISOString() });
    const auth = `Bearer ${secret}`;
    expect((await api().get("/admin/v1/session").set("Authorization", auth).expect(200)).body.expiresAt).toBe(
      expiresAt.toISOString(),
    );
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt.getTime() - Date.now())));
    let status = 200;
    while (status === 200) {
      status = (await api().get("/v1/pets").set("Authorization", auth)).status;
      expect(Date.now() - expiresAt.getTime()).toBeLessThan(1_000);
    }
    expect(status).toBe(401);
  });

  it("a key cannot outlive the key that issues it: an expiring admin key's createKey without expiresAt, or a later one, is a 400 naming the latest allowed", async () => {
    const expiresAt = new Date(Date.now() + 24 * 3_600_000);
    const { secret } = await issue("admin", { expiresAt: expiresAt.toISOString() });
    const asExpiring = `Bearer ${secret}`;
    const later = new Date(expiresAt.getTime() + 1_000).toISOString();
    for (const body of [
      { name: "forever", scope: "admin" },
      { name: "later", scope: "read", expiresAt: later },
    ]) {
      const response = await api().post("/admin/v1/keys").set("Authorization", asExpiring).send(body);
      expectError(response, 400, "VALIDATION_ERROR");
      expect(response.body.issues, body.name).toEqual([
        { field: "body.expiresAt", message: expect.stringContaining(expiresAt.toISOString()) },
      ]);
    }
    // Its own expiry or an earlier one is fine; a configured key (which never expires) may still issue a key that never does.
    await api()
      .post("/admin/v1/keys")
      .set("Authorization", asExpiring)
      .send({ name: "same", scope: "read", expiresAt: expiresAt.toISOString() })
      .expect(201);
    const earlier = new Date(expiresAt.getTime() - 3_600_000).toISOString();
    await api()
      .post("/admin/v1/keys")
      .set("Authorization", asExpiring)
      .send({ name: "earlier", scope: "admin", expiresAt: earlier })
      .expect(201);
    await api()
      .post("/admin/v1/keys")
      .set("Authorization", asAdmin)
      .send({ name: "configured's", scope: "admin" })
      .expect(201);
    const names = ((await api().get("/admin/v1/keys").set("Authorization", asAdmin).expect(200)).body as ApiKey[]).map(
      (key) => key.name,
    );
    expect(names.sort()).toEqual(["admin key", "configured's", "earlier", "same"]);
  });

  it("400 for a bad name, scope, date, keyId or filter; 404 for an unknown key; nothing stored", async () => {
    for (const body of [
      { name: "", scope: "read" },
      { name: "x", scope: "owner" },
      { name: "x", scope: "read", expiresAt: "2001-01-01T00:00:00Z" },
      { name: "x", scope: "read", expiresAt: "soon" },
    ]) {
      expectError(await api().post("/admin/v1/keys").set("Authorization", asAdmin).send(body), 400, "VALIDATION_ERROR");
    }
    expectError(
      await api().post("/admin/v1/keys/configured-1/revoke").set("Authorization", asAdmin),
      400,
      "VALIDATION_ERROR",
    );
    expectError(await api().post("/admin/v1/keys/7.0/revoke").set("Authorization", asAdmin), 400, "VALIDATION_ERROR");
    expectError(await api().post("/admin/v1/keys/424242/revoke").set("Authorization", asAdmin), 404, "NOT_FOUND");
    expectError(
      await api().get("/admin/v1/audit-events?limit=0").set("Authorization", asAdmin),
      400,
      "VALIDATION_ERROR",
    );
    expectError(
      await api().get("/admin/v1/audit-events?action=pet.eaten").set("Authorization", asAdmin),
      400,
      "VALIDATION_ERROR",
    );
    expect((await api().get("/admin/v1/keys").set("Authorization", asAdmin)).body).toEqual([]);
    expect(await events()).toEqual([]);
    expectError(await api().get("/admin/v1/keys"), 401, "UNAUTHORIZED");
  });

  it("audit events: pet.created with actor, request id and client address; none on a replay or a 4xx; key events; filter and paging", async () => {
    const { key, secret } = await issue("write");
    const auth = `Bearer ${secret}`;
    const created = await api()
      .post("/v1/pets")
      .set("Authorization", auth)
      .set("Idempotency-Key", "audit-1")
      .send({ name: "Rex", categoryId: 1 })
      .expect(201);
    const replay = await api()
      .post("/v1/pets")
      .set("Authorization", auth)
      .set("Idempotency-Key", "audit-1")
      .send({ name: "Rex", categoryId: 1 })
      .expect(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    await api()
      .post("/v1/pets")
      .set("Authorization", auth)
      .set("Idempotency-Key", "audit-1")
      .send({ name: "Max", categoryId: 1 })
      .expect(422);
    await api().post("/v1/pets").set("Authorization", auth).send({ name: "", categoryId: 1 }).expect(400);
    const plain = await api()
      .post("/v1/pets")
      .set("Authorization", asAdmin)
      .send({ name: "Tom", categoryId: 2 })
      .expect(201);
    await api().post(`/admin/v1/keys/${key.id}/revoke`).set("Authorization", asAdmin).expect(200);

    const all = await events();
    expect(all.map((event) => `${event.action} ${event.target.type} ${event.target.label}`)).toEqual([
      "key.revoked key write key",
      "pet.created pet Tom",
      "pet.created pet Rex",
      "key.created key write key",
    ]);
    const [revoked, tom, rex] = all;
    expect(rex).toMatchObject({
      actor: { keyId: String(key.id), name: "write key" },
      target: { type: "pet", id: created.body.id, label: "Rex" },
      requestId: created.headers["x-request-id"],
      clientAddress: expect.stringMatching(/127\.0\.0\.1/),
    });
    const configuredId = await configuredKeyIdOn(t.database);
    expect(tom).toMatchObject({
      actor: { keyId: configuredId, name: "Configured key 1" },
      requestId: plain.headers["x-request-id"],
    });
    expect(revoked).toMatchObject({ actor: { keyId: configuredId }, target: { type: "key", id: key.id } });

    expect((await events("?action=pet.created")).map((event) => event.target.label)).toEqual(["Tom", "Rex"]);
    expect((await events(`?targetType=pet&targetId=${created.body.id}`)).map((event) => event.target.label)).toEqual([
      "Rex",
    ]);
    const first = await api().get("/admin/v1/audit-events?limit=3").set("Authorization", asAdmin).expect(200);
    expect(first.body).toHaveLength(3);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers["link"] ?? "")?.[1];
    expect(next).toBe(`/admin/v1/audit-events?limit=3&after=${first.body[2].id}`);
    const second = await api().get(next!).set("Authorization", asAdmin).expect(200);
    expect(second.body.map((event: { action: string }) => event.action)).toEqual(["key.created"]);
    expect(second.headers["link"]).toBeUndefined();
  });

  it("an event is in the transaction of its change: when the event cannot be written, neither is the pet nor the key", async () => {
    const block =
      provider === "sqlite"
        ? `CREATE TRIGGER "block_events" BEFORE INSERT ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'blocked by the test'); END`
        : `CREATE FUNCTION block_events() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'blocked by the test'; END $$;
           CREATE TRIGGER "block_events" BEFORE INSERT ON "AuditEvent" FOR EACH ROW EXECUTE FUNCTION block_events()`;
    await runSql(t.config.databaseUrl, block);
    await api().post("/v1/pets").set("Authorization", asAdmin).send({ name: "Rex", categoryId: 1 }).expect(500);
    await api()
      .post("/v1/pets")
      .set("Authorization", asAdmin)
      .set("Idempotency-Key", "k")
      .send({ name: "Rex", categoryId: 1 })
      .expect(500);
    await api()
      .post("/admin/v1/keys")
      .set("Authorization", asAdmin)
      .send({ name: "Blocked", scope: "read" })
      .expect(500);
    expect(await runSql(t.config.databaseUrl, `SELECT "id" FROM "Pet"`)).toEqual([]);
    expect(await runSql(t.config.databaseUrl, `SELECT "id" FROM "ApiKey"`)).toEqual([]);
    expect(await runSql(t.config.databaseUrl, `SELECT "scope" FROM "IdempotencyRecord"`)).toEqual([]);
  });

  it("idempotency records are scoped by the caller (configured-<fingerprint>, key-<id>), never by a key or its digest", async () => {
    const { key, secret } = await issue("write");
    await api()
      .post("/v1/pets")
      .set("Authorization", asAdmin)
      .set("Idempotency-Key", "scoped-1")
      .send({ name: "Rex", categoryId: 1 })
      .expect(201);
    await api()
      .post("/v1/pets")
      .set("Authorization", `Bearer ${secret}`)
      .set("Idempotency-Key", "scoped-1")
      .send({ name: "Max", categoryId: 1 })
      .expect(201);
    const scopes = (
      await runSql<{ scope: string }>(t.config.databaseUrl, `SELECT "scope" FROM "IdempotencyRecord"`)
    ).map((row) => row.scope);
    expect(scopes.sort()).toEqual([await configuredKeyIdOn(t.database), `key-${key.id}`].sort());
    for (const scope of scopes) expect(scope).not.toMatch(/^[0-9a-f]{64}$/);
    const stored = JSON.stringify(await runSql(t.config.databaseUrl, `SELECT * FROM "IdempotencyRecord"`));
    const configuredKey = asAdmin.slice("Bearer ".length);
    for (const secretText of [configuredKey, sha256(configuredKey), secret.slice(12), sha256(secret)])
      expect(stored).not.toContain(secretText);
  });

  it("the activity log is append-only in the database itself: UPDATE, DELETE and TRUNCATE raise, for the API's own user too", async () => {
    await issue("read");
    // The API's own connection string: the user that migrated the database and owns the table.
    const url = t.config.databaseUrl;
    await expect(runSql(url, `UPDATE "AuditEvent" SET "actorName" = 'someone else'`)).rejects.toThrow(/append-only/);
    await expect(runSql(url, `DELETE FROM "AuditEvent"`)).rejects.toThrow(/append-only/);
    // SQLite has no TRUNCATE: its way to empty a table is the DELETE above (its truncate optimisation is off on a table with a DELETE trigger).
    if (provider === "postgresql") {
      await expect(runSql(url, `TRUNCATE "AuditEvent"`)).rejects.toThrow(/append-only/);
      await expect(runSql(url, `TRUNCATE ONLY "AuditEvent" RESTART IDENTITY`)).rejects.toThrow(/append-only/);
    }
    expect(await runSql(url, `SELECT "action" FROM "AuditEvent"`)).toEqual([{ action: "key.created" }]);
  });

  it("lastUsedAt and lastDeprecatedUseAt: the first use is written at once, later ones not within the minute", async () => {
    const { key, secret } = await issue("read");
    const auth = `Bearer ${secret}`;
    const stored = async () =>
      ((await api().get("/admin/v1/keys").set("Authorization", asAdmin)).body as ApiKey[]).find(
        (k) => k.id === key.id,
      )!;
    await api().get("/v1/pets").set("Authorization", auth).expect(200);
    await expect.poll(async () => (await stored()).lastUsedAt, { timeout: 2_000 }).not.toBeNull();
    const first = await stored();
    expect(first.lastDeprecatedUseAt).toBeNull();
    await api().get("/v1/pets").set("Authorization", auth).expect(200);
    await api().get("/v1/pets/1").set("Authorization", auth).expect(404);
    await expect.poll(async () => (await stored()).lastDeprecatedUseAt, { timeout: 2_000 }).not.toBeNull();
    expect((await stored()).lastUsedAt).toBe(first.lastUsedAt);
  });

  it(`listKeys answers the ${LIST_KEYS_MAX} newest keys, newest first, as its schema's maxItems says`, async () => {
    const { key: oldest } = await issue("read");
    // Straight into the table: LIST_KEYS_MAX creates through the API would only be slower.
    const digits = "lpad(to_hex(n), 64, '0')";
    await runSql(
      t.config.databaseUrl,
      t.config.databaseUrl.startsWith("file:")
        ? `WITH RECURSIVE n(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM n WHERE n < ${LIST_KEYS_MAX})
           INSERT INTO "ApiKey" ("name", "scope", "prefix", "secretDigest") SELECT 'bulk ' || n, 'read', 'psk_bulk0000', printf('%064x', n) FROM n`
        : `INSERT INTO "ApiKey" ("name", "scope", "prefix", "secretDigest")
           SELECT 'bulk ' || n, 'read', 'psk_bulk0000', ${digits} FROM generate_series(1, ${LIST_KEYS_MAX}) AS n`,
    );
    const listed = ApiKeys.parse((await api().get("/admin/v1/keys").set("Authorization", asAdmin).expect(200)).body);
    expect(listed).toHaveLength(LIST_KEYS_MAX);
    expect(listed[0]?.name).toBe(`bulk ${LIST_KEYS_MAX}`);
    expect(listed.map((k) => k.id)).not.toContain(oldest.id);
  });

  it("closing the database waits for a key's first-use write, which no request waited for", async () => {
    const { key, secret } = await issue("read");
    await api().get("/v1/pets").set("Authorization", `Bearer ${secret}`).expect(200);
    await t.database.close(); // at once: the write started by that request may still be in flight
    const [row] = await runSql<{ lastUsedAt: unknown }>(
      t.config.databaseUrl,
      `SELECT "lastUsedAt" FROM "ApiKey" WHERE id = ${key.id}`,
    );
    expect(row?.lastUsedAt).not.toBeNull();
    await expect(t.database.inBackground(async () => "late")).rejects.toThrow(/closing/);
  });

  it("no secret in the database, the logs, or any response but the create's", async () => {
    const { key, secret } = await issue("admin");
    const auth = `Bearer ${secret}`;
    const responses = [
      await api().get("/admin/v1/session").set("Authorization", auth),
      await api().get("/admin/v1/keys").set("Authorization", auth),
      await api().post("/v1/pets").set("Authorization", auth).send({ name: "Rex", categoryId: 1 }),
      await api().get("/v1/pets/999").set("Authorization", auth),
      await api().get("/admin/v1/audit-events").set("Authorization", auth),
      await api().post(`/admin/v1/keys/${key.id}/revoke`).set("Authorization", auth),
      await api().get("/v1/pets").set("Authorization", auth),
    ];
    const secretPart = secret.slice(12); // the prefix is shown on purpose; the rest never
    for (const response of responses)
      expect(JSON.stringify(response.headers) + response.text).not.toContain(secretPart);
    expect(t.logs.join("\n")).not.toContain(secretPart);
    if (provider === "sqlite") {
      const file = sqliteFilePath(t.config.databaseUrl);
      const folder = path.dirname(file);
      for (const name of readdirSync(folder))
        expect(readFileSync(path.join(folder, name)).includes(secretPart), name).toBe(false);
    } else {
      const rows = await runSql(
        t.config.databaseUrl,
        `SELECT row_to_json(k)::text AS "row" FROM "ApiKey" k UNION ALL SELECT row_to_json(e)::text FROM "AuditEvent" e`,
      );
      expect(rows.length).toBeGreaterThan(1);
      expect(JSON.stringify(rows)).not.toContain(secretPart);
    }
  });

  it("with TRUST_PROXY set, an X-Forwarded-For entry that is not an address is not believed: the socket's address is stored and counted", async () => {
    const proxied = await createTestApp({ TRUST_PROXY: "loopback", AUTH_FAILURES_PER_MIN: "2" }, provider);
    try {
      const forged = "x".repeat(100);
      const zoned = `fe80::1%${"a".repeat(100)}`; // an IPv6 text with a zone id passes isIP whatever the zone's length
      for (const header of [forged, zoned, "not an address", "203.0.113.9:4000", "203.0.113.9, <script>"]) {
        await request(proxied.app)
          .post("/v1/pets")
          .set("Authorization", asAdmin)
          .set("X-Forwarded-For", header)
          .send({ name: "Rex", categoryId: 1 })
          .expect(201);
      }
      // A real address from the trusted proxy is still believed.
      await request(proxied.app)
        .post("/v1/pets")
        .set("Authorization", asAdmin)
        .set("X-Forwarded-For", "203.0.113.9")
        .send({ name: "Max", categoryId: 1 })
        .expect(201);
      const listed = await request(proxied.app).get("/admin/v1/audit-events").set("Authorization", asAdmin);
      expect(listed.status).toBe(200);
      const addresses = AuditEvents.parse(listed.body).map((event) => event.clientAddress);
      expect(addresses).toEqual([
        "203.0.113.9",
        ...Array.from({ length: 5 }, () => expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$|^::1$/)),
      ]);
      // The failure budget is the socket's: a new made-up value per try earns no fresh budget.
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        statuses.push(
          (
            await request(proxied.app)
              .get("/v1/pets")
              .set("Authorization", "Bearer wrong")
              .set("X-Forwarded-For", `guess-${i}`)
          ).status,
        );
      }
      expect(statuses).toEqual([401, 401, 429]);
      expect(proxied.logs.join("\n")).not.toContain(forged);
    } finally {
      await proxied.close();
    }
  });

  it("/admin/v1/openapi.json is served without a key; /admin/v1 answers carry the JSON header set", async () => {
    const document = await api().get("/admin/v1/openapi.json").expect(200);
    expect(Object.keys(document.body.paths)).toContain("/keys");
    const response = await api().get("/admin/v1/session").set("Authorization", asAdmin).expect(200);
    expect(response.headers).toMatchObject({
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
      "x-request-id": expect.any(String),
    });
    expect((await api().get("/admin/v1/nothing").set("Authorization", asAdmin)).status).toBe(404);
  });
});
