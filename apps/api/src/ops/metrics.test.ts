import net from "node:net";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { openDatabase } from "../database.js";
import { readConfig } from "../base/env.js";
import { createLogger } from "./logger.js";
import { createMetrics } from "./metrics.js";
import { createStopSwitch } from "./shutdown.js";
import { expectError } from "../test/expect-error.js";
import { bearer, createTestApp, freshDatabase, TEST_KEY, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const scrapeAuth = `Bearer ${METRICS_TOKEN}`;

/** Series of the exposition text whose name starts with `prefix`: `name{labels}` -> value. */
function series(text: string, prefix = ""): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line.startsWith(prefix) || line.startsWith("#") || line === "") continue;
    const cut = line.lastIndexOf(" ");
    found.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return found;
}

it("petstore_shutting_down reads the stop state at scrape time: 0, then 1 once the process is stopping", async () => {
  const stopSwitch = createStopSwitch();
  const metrics = createMetrics({ database: { isReady: async () => true }, stopState: stopSwitch, enabled: false });
  expect(series(await metrics.registry.metrics(), "petstore_shutting_down").get("petstore_shutting_down")).toBe(0);
  stopSwitch.stop();
  expect(series(await metrics.registry.metrics(), "petstore_shutting_down").get("petstore_shutting_down")).toBe(1);
});

it("limiterStoreFellBack and limitRejected move their counters (present at 0 before)", async () => {
  const metrics = createMetrics({ database: { isReady: async () => true }, enabled: false });
  const before = series(await metrics.registry.metrics(), "petstore_");
  expect(before.get("petstore_limiter_store_fallbacks_total")).toBe(0);
  expect(before.get('petstore_limit_rejections_total{limit="requests_per_key"}')).toBe(0);
  expect(before.get('petstore_limit_rejections_total{limit="auth_failures"}')).toBe(0);
  expect(before.get('petstore_limit_rejections_total{limit="sign_in_starts"}')).toBe(0);
  expect(before.get('petstore_limit_rejections_total{limit="session_tokens"}')).toBe(0);
  metrics.limiterStoreFellBack();
  metrics.limiterStoreFellBack();
  metrics.limitRejected("auth_failures");
  const after = series(await metrics.registry.metrics(), "petstore_");
  expect(after.get("petstore_limiter_store_fallbacks_total")).toBe(2);
  expect(after.get('petstore_limit_rejections_total{limit="auth_failures"}')).toBe(1);
});

it("storageFault counts 503s from the database by cause, every cause present at 0 before", async () => {
  const metrics = createMetrics({ database: { isReady: async () => true }, enabled: false });
  const before = series(await metrics.registry.metrics(), "petstore_storage_faults_total");
  expect([...before.keys()].sort()).toEqual(
    [
      "disk_full",
      "lock_timeout",
      "out_of_memory",
      "resource_limit",
      "shutting_down",
      "too_many_connections",
      "unreachable",
    ].map((cause) => `petstore_storage_faults_total{cause="${cause}"}`),
  );
  expect(new Set(before.values())).toEqual(new Set([0]));
  metrics.storageFault("disk_full");
  metrics.storageFault("disk_full");
  metrics.storageFault("too_many_connections");
  const after = series(await metrics.registry.metrics(), "petstore_storage_faults_total");
  expect(after.get('petstore_storage_faults_total{cause="disk_full"}')).toBe(2);
  expect(after.get('petstore_storage_faults_total{cause="too_many_connections"}')).toBe(1);
  expect(after.get('petstore_storage_faults_total{cause="out_of_memory"}')).toBe(0);
});

describe.each(TEST_PROVIDERS)("GET /metrics on %s", (provider) => {
  let t: TestApp;
  const start = async (env: Record<string, string> = {}) => {
    t = await createTestApp({ METRICS_TOKEN, ...env }, provider);
    return t;
  };
  afterEach(async () => {
    await t.close();
  });
  const scrape = async () => {
    const response = await request(t.app).get("/metrics").set("Authorization", scrapeAuth).expect(200);
    return response.text;
  };

  it("without METRICS_TOKEN: the JSON 404 of an unknown route, also for a browser", async () => {
    t = await createTestApp({}, provider);
    expectError(await request(t.app).get("/metrics").set("Authorization", scrapeAuth), 404, "NOT_FOUND");
    expectError(await request(t.app).get("/metrics").set("Accept", "text/html"), 404, "NOT_FOUND");
  });

  it("401 with WWW-Authenticate without the token, with a wrong one, and with an API key", async () => {
    await start();
    for (const authorization of [
      undefined,
      "Bearer wrong",
      bearer(TEST_KEY),
      METRICS_TOKEN,
      `Basic ${METRICS_TOKEN}`,
    ]) {
      const call = request(t.app).get("/metrics");
      const response = await (authorization ? call.set("Authorization", authorization) : call);
      expectError(response, 401, "UNAUTHORIZED");
      expect(response.headers["www-authenticate"]).toMatch(/^Bearer /);
      expect(response.text).not.toContain("http_requests_total");
    }
  });

  it("wrong tokens spend the address's failure budget, shared with wrong API keys: then 429, the right token still 200", async () => {
    await start({ AUTH_FAILURES_PER_MIN: "2" });
    expectError(await request(t.app).get("/metrics").set("Authorization", "Bearer wrong"), 401, "UNAUTHORIZED");
    expectError(await request(t.app).get("/v1/pets").set("Authorization", bearer("wrong")), 401, "UNAUTHORIZED");
    for (const blocked of [
      await request(t.app).get("/metrics").set("Authorization", "Bearer wrong"),
      await request(t.app).get("/metrics"),
      await request(t.app).get("/v1/pets").set("Authorization", bearer("wrong")),
    ]) {
      expectError(blocked, 429, "RATE_LIMITED");
      expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    }
    const found = series(await scrape());
    expect(found.get('petstore_limit_rejections_total{limit="auth_failures"}')).toBe(3);
  });

  it("200 with the token: Prometheus text with the process metrics, not cached", async () => {
    await start();
    const response = await request(t.app).get("/metrics").set("Authorization", `bearer ${METRICS_TOKEN}`).expect(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain;.*version=0\.0\.4/);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.text).toContain("# TYPE process_cpu_user_seconds_total counter");
    expect(response.text).toContain("# TYPE nodejs_eventloop_lag_seconds gauge");
  });

  it("scrapes spend no API key's budget: /metrics is outside the key's rate limit", async () => {
    await start({ RATE_LIMIT_PER_MIN: "1" });
    for (let i = 0; i < 3; i++) await scrape();
    await request(t.app).get("/v1/pets").set("Authorization", bearer()).expect(200);
  });

  it("counts and times each response by contract operation and status, 401s included", async () => {
    await start();
    const api = request(t.app);
    const created = await api
      .post("/v1/pets")
      .set("Authorization", bearer())
      .send({ name: "Rex", categoryId: 1 })
      .expect(201);
    await api.post("/v1/pets").set("Authorization", bearer()).send({ name: "" }).expect(400);
    await api.get("/v1/pets").set("Authorization", bearer()).expect(200);
    await api.get("/v1/pets").set("Authorization", bearer()).expect(200);
    await api.get("/v1/pets").expect(401);
    await api.get(`/v1/pets/${created.body.id}`).set("Authorization", bearer()).expect(200);
    await api.get("/v1/pets/999999").set("Authorization", bearer()).expect(404);
    await api.get("/no/such/path").expect(404);
    await api.get("/admin/v1/keys").set("Authorization", bearer()).expect(200);
    await api.post("/admin/v1/keys/7/revoke").set("Authorization", bearer()).expect(404);

    const found = series(await scrape(), "http_request");
    // The access operations (/admin/v1) are labelled by their own names.
    expect(found.get('http_requests_total{operation="listKeys",status="200"}')).toBe(1);
    expect(found.get('http_requests_total{operation="revokeKey",status="404"}')).toBe(1);
    expect(found.get('http_requests_total{operation="createPet",status="201"}')).toBe(1);
    expect(found.get('http_requests_total{operation="createPet",status="400"}')).toBe(1);
    expect(found.get('http_requests_total{operation="listPets",status="200"}')).toBe(2);
    expect(found.get('http_requests_total{operation="listPets",status="401"}')).toBe(1);
    expect(found.get('http_requests_total{operation="getPet",status="200"}')).toBe(1);
    expect(found.get('http_requests_total{operation="getPet",status="404"}')).toBe(1);
    expect(found.get('http_requests_total{operation="unmatched",status="404"}')).toBe(1);
    expect(found.get('http_request_duration_seconds_count{operation="listPets",status="200"}')).toBe(2);
    expect(found.get('http_request_duration_seconds_bucket{le="+Inf",operation="getPet",status="404"}')).toBe(1);
    expect(found.get('http_request_duration_seconds_sum{operation="createPet",status="201"}')).toBeGreaterThan(0);
    // Never the raw path: no label but operation, status and the histogram's le.
    for (const name of found.keys())
      expect(name).toMatch(/^[a-z_]+\{(le="[^"]+",)?operation="[A-Za-z]+",status="\d{3}"\}$/);
  });

  it("label values are bounded: hundreds of unknown paths and odd methods add no series", async () => {
    await start();
    await request(t.app).get("/unknown-first").expect(404);
    const before = [...series(await scrape(), "http_request").keys()].filter((name) => !name.includes('status="200"'));
    const methods = [
      "get",
      "post",
      "put",
      "patch",
      "delete",
      "head",
      "propfind",
      "mkcol",
      "lock",
      "search",
      "purge",
    ] as const;
    for (let i = 0; i < 300; i++) {
      const method = methods[i % methods.length]!;
      const path = [`/unknown-${i}`, `/a/${i}/b?x=${i}`, `/v2/pets/${i}`, `/%7e${i}`][i % 4]!;
      expect((await request(t.app)[method](path)).status).toBe(404);
    }
    // The scrapes themselves add one series of their own (unmatched, 200); everything else must be as before.
    const after = [...series(await scrape(), "http_request").keys()].filter((name) => !name.includes('status="200"'));
    expect(after.sort()).toEqual(before.sort());
  });

  it("counts 429s by limit", async () => {
    await start({ RATE_LIMIT_PER_MIN: "1", AUTH_FAILURES_PER_MIN: "1" });
    const api = request(t.app);
    await api.get("/v1/pets").set("Authorization", bearer()).expect(200);
    await api.get("/v1/pets").set("Authorization", bearer()).expect(429);
    await api.get("/v1/pets").set("Authorization", bearer("wrong")).expect(401);
    await api.get("/v1/pets").set("Authorization", bearer("wrong")).expect(429);
    await api.get("/v1/pets").set("Authorization", bearer("wrong")).expect(429);
    const found = series(await scrape());
    expect(found.get('petstore_limit_rejections_total{limit="requests_per_key"}')).toBe(1);
    expect(found.get('petstore_limit_rejections_total{limit="auth_failures"}')).toBe(2);
    expect(found.get('http_requests_total{operation="listPets",status="429"}')).toBe(3);
  });

  it("petstore_database_up is 1, and 0 once the database is closed", async () => {
    await start();
    expect(series(await scrape()).get("petstore_database_up")).toBe(1);
    await t.database.close();
    expect(series(await scrape()).get("petstore_database_up")).toBe(0);
  });

  if (provider === "postgresql") {
    it("the pool's connections in use, idle and waiting", async () => {
      await start();
      await request(t.app).get("/v1/pets").set("Authorization", bearer()).expect(200);
      const found = series(await scrape(), "petstore_db_pool_connections");
      expect([...found.keys()].sort()).toEqual([
        'petstore_db_pool_connections{state="idle"}',
        'petstore_db_pool_connections{state="in_use"}',
        'petstore_db_pool_connections{state="waiting"}',
      ]);
      // The scrape's own readiness query has returned its connection: all idle, none waiting.
      expect(found.get('petstore_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(1);
      expect(found.get('petstore_db_pool_connections{state="waiting"}')).toBe(0);
      expect(t.database.poolStats?.()).toEqual({ inUse: 0, idle: expect.any(Number), waiting: 0 });
    });

    it("no group-commit series: PostgreSQL commits each create on its own", async () => {
      await start();
      expect(await scrape()).not.toContain("petstore_sqlite_group_");
    });
  } else {
    it("no pool series: SQLite has one connection", async () => {
      await start();
      expect(await scrape()).not.toContain("petstore_db_pool_connections");
    });

    it("creates committed together: the commits and the creates they carried, present at 0 before", async () => {
      await start();
      const before = series(await scrape(), "petstore_sqlite_group_");
      expect(before).toEqual(
        new Map([
          ["petstore_sqlite_group_commits_total", 0],
          ["petstore_sqlite_group_committed_creates_total", 0],
        ]),
      );
      const create = (name: string) =>
        request(t.app).post("/v1/pets").set("Authorization", bearer()).send({ name, categoryId: 1 }).expect(201);
      await Promise.all([create("a"), create("b"), create("c")]);
      await create("d");
      // Keyed creates have their own transaction, not counted here.
      await request(t.app)
        .post("/v1/pets")
        .set("Authorization", bearer())
        .set("Idempotency-Key", "k-1")
        .send({ name: "e", categoryId: 1 })
        .expect(201);
      const after = series(await scrape(), "petstore_sqlite_group_");
      expect(after.get("petstore_sqlite_group_committed_creates_total")).toBe(4);
      // Three sent at once share a commit when they arrive in one turn; the fourth has its own.
      expect(after.get("petstore_sqlite_group_commits_total")).toBeGreaterThanOrEqual(2);
      expect(after.get("petstore_sqlite_group_commits_total")).toBeLessThanOrEqual(4);
      expect(t.database.groupCommits?.()).toEqual({
        commits: after.get("petstore_sqlite_group_commits_total"),
        writes: 4,
      });
    });
  }
});

describe("createApp wires the limiter store's fallbacks and the 429s to the metrics", () => {
  it("with Redis unreachable, counts taken in-process show in petstore_limiter_store_fallbacks_total; a 429 in the rejections", async () => {
    const db = await freshDatabase("sqlite");
    // A port nothing listens on: Redis is down from the start.
    const deadRedisPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const config = readConfig({
      NODE_ENV: "test",
      API_KEYS: TEST_KEY,
      DATABASE_URL: db.url,
      METRICS_TOKEN,
      REDIS_URL: `redis://127.0.0.1:${deadRedisPort}`,
      RATE_LIMIT_PER_MIN: "2",
      AUTH_FAILURES_PER_MIN: "0",
    });
    config.webDistDir = undefined;
    const database = await openDatabase({ url: config.databaseUrl, poolSize: 1, sqliteBusyTimeoutMs: 1000 });
    try {
      const app = createApp({ config, logger: createLogger({ logLevel: "silent", nodeEnv: "test" }), database });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await request(app).get("/v1/pets").set("Authorization", bearer())).status);
      expect(statuses).toEqual([200, 200, 429]);
      const scraped = series((await request(app).get("/metrics").set("Authorization", scrapeAuth)).text, "petstore_");
      expect(scraped.get("petstore_limiter_store_fallbacks_total")).toBe(3);
      expect(scraped.get('petstore_limit_rejections_total{limit="requests_per_key"}')).toBe(1);
    } finally {
      await database.close();
      await db.remove();
    }
  });
});
