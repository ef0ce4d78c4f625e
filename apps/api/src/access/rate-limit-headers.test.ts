import { randomUUID } from "node:crypto";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { expectError } from "../test/expect-error.js";
import { REDIS_TEST_URL, redisUnavailable, requireOrSkip } from "../test/redis-server.js";
import { bearer, startsAppsClosedAfterEach } from "../test/test-app.js";
import { RateLimitFields } from "./rate-limit-headers.js";

const start = startsAppsClosedAfterEach();

/** `"per-key";r=2;t=59` -> { policy: "per-key", r: 2, t: 59 } */
function parseRateLimit(value: string | undefined) {
  const match = /^"([a-z-]+)";r=(\d+);t=(\d+)$/.exec(value ?? "");
  if (!match) throw new Error(`not a RateLimit value: ${String(value)}`);
  return { policy: match[1], r: Number(match[2]), t: Number(match[3]) };
}

describe("RateLimit and RateLimit-Policy (IETF httpapi RateLimit header fields draft)", () => {
  it("formats the draft's fields", () => {
    const fields = new RateLimitFields("per-key", { quota: 1200, windowSeconds: 60 });
    expect(fields.policy).toBe('"per-key";q=1200;w=60');
    expect(fields.current({ allowed: true, remaining: 1187, resetSeconds: 42 })).toBe('"per-key";r=1187;t=42');
  });

  it("every answer to a key's counted request says what is left; the 429 says 0 and Retry-After equals t", async () => {
    const { app } = await start({ RATE_LIMIT_PER_MIN: "4" });
    const answers = [
      await request(app).get("/v1/pets").set("Authorization", bearer()).expect(200),
      await request(app)
        .post("/v1/pets")
        .set("Authorization", bearer())
        .send({ name: "Rex", categoryId: 1 })
        .expect(201),
      await request(app).get("/v1/pets?limit=0").set("Authorization", bearer()).expect(400),
      await request(app).get("/v1/pets/999999").set("Authorization", bearer()).expect(404),
    ];
    expect(answers.map((answer) => answer.headers["ratelimit-policy"])).toEqual(Array(4).fill('"per-key";q=4;w=60'));
    const counts = answers.map((answer) => parseRateLimit(answer.headers["ratelimit"]));
    expect(counts.map(({ policy, r }) => [policy, r])).toEqual([
      ["per-key", 3],
      ["per-key", 2],
      ["per-key", 1],
      ["per-key", 0],
    ]);
    for (const { t } of counts) {
      expect(t).toBeGreaterThan(0);
      expect(t).toBeLessThanOrEqual(60);
    }

    const refused = await request(app).get("/v1/pets").set("Authorization", bearer());
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.headers["ratelimit-policy"]).toBe('"per-key";q=4;w=60');
    const { r, t } = parseRateLimit(refused.headers["ratelimit"]);
    expect(r).toBe(0);
    expect(Number(refused.headers["retry-after"])).toBe(t);
    expect(t).toBeGreaterThanOrEqual(1);
  });

  it("a 401 says what is left of the address's failure budget, under its own policy", async () => {
    const { app } = await start({ AUTH_FAILURES_PER_MIN: "2", RATE_LIMIT_PER_MIN: "100" });
    const first = await request(app).get("/v1/pets").set("Authorization", "Bearer guess");
    expectError(first, 401, "UNAUTHORIZED");
    expect(first.headers["ratelimit-policy"]).toBe('"auth-failures";q=2;w=60');
    expect(parseRateLimit(first.headers["ratelimit"])).toMatchObject({ policy: "auth-failures", r: 1 });
    expect(first.headers["www-authenticate"]).toBeDefined();
    await request(app).get("/v1/pets").expect(401);
    const refused = await request(app).get("/v1/pets");
    expectError(refused, 429, "RATE_LIMITED");
    expect(parseRateLimit(refused.headers["ratelimit"])).toMatchObject({ policy: "auth-failures", r: 0 });
    expect(Number(refused.headers["retry-after"])).toBe(parseRateLimit(refused.headers["ratelimit"]).t);
  });

  it("sends neither field when the limits are off, nor on requests outside the counted API", async () => {
    const { app } = await start({});
    const listed = await request(app).get("/v1/pets").set("Authorization", bearer()).expect(200);
    expect(listed.headers["ratelimit"]).toBeUndefined();
    expect(listed.headers["ratelimit-policy"]).toBeUndefined();
    const limited = await start({ RATE_LIMIT_PER_MIN: "10" });
    const probe = await request(limited.app).get("/healthz").expect(200);
    expect(probe.headers["ratelimit"]).toBeUndefined();
  });

  it("exposes both fields to a page on an allowed origin (CORS)", async () => {
    const { app } = await start({ RATE_LIMIT_PER_MIN: "10", CORS_ORIGIN: "http://127.0.0.1:5173" });
    const response = await request(app)
      .get("/v1/pets")
      .set("Authorization", bearer())
      .set("Origin", "http://127.0.0.1:5173")
      .expect(200);
    expect(response.headers["access-control-expose-headers"]?.split(",")).toEqual(
      expect.arrayContaining(["RateLimit", "RateLimit-Policy"]),
    );
  });
});

const sharedRedis = requireOrSkip("Redis (REDIS_TEST_URL)", await redisUnavailable());

describe.runIf(sharedRedis)("RateLimit with REDIS_URL", () => {
  it("reports the budget that replicas share", async () => {
    const prefix = `petstore-test:${randomUUID()}`;
    const env = { REDIS_URL: REDIS_TEST_URL, RATE_LIMIT_PER_MIN: "5" };
    // Replicas share the database too: a configured key's caller id is its fingerprint under the deployment's salt.
    const a = await start(env, prefix);
    const b = await start({ ...env, DATABASE_URL: a.config.databaseUrl }, prefix);
    const remaining = [];
    for (const app of [a.app, b.app, a.app]) {
      remaining.push(
        parseRateLimit(
          (await request(app).get("/v1/pets").set("Authorization", bearer()).expect(200)).headers["ratelimit"],
        ).r,
      );
    }
    expect(remaining).toEqual([4, 3, 2]);
  });
});
