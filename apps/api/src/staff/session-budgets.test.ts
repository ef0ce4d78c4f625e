import { randomUUID } from "node:crypto";
import { CreatedApiKey, InvitedStaffMember, SessionToken, type StaffMember, type StaffRole } from "@petstore/contract";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { abuseLimitsFromConfig } from "../access/rate-limit.js";
import { openDatabase } from "../database.js";
import { createLogger } from "../ops/logger.js";
import { expectError } from "../test/expect-error.js";
import { REDIS_TEST_URL, redisUnavailable, requireOrSkip } from "../test/redis-server.js";
import { sessionCookieHeader as cookieHeader, sessionCookieOf as cookieOf } from "../test/session-cookies.js";
import { signInApp } from "../test/sign-in-app.js";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";

// Issue 46, finding 6 ("unmetered work"): a session's tokens have a budget, a token bought moves no
// replica's key set, and a sign-out with an unknown cookie spends the address's failure budget.

const ORIGIN = "http://localhost:5173";
const asAdmin = bearer();
const METRICS_TOKEN = "metrics-token-0123456789abcdef0123456789";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The person-session helpers of a test app. */
function helpers(t: TestApp) {
  const api = () => request(t.app);
  return {
    api,
    async invite(role: StaffRole = "write") {
      const email = `sam.${randomUUID().slice(0, 8)}@example.com`;
      return InvitedStaffMember.parse(
        (
          await api()
            .post("/admin/v1/staff")
            .set("Authorization", asAdmin)
            .send({ email, name: "Sam Rivera", role })
            .expect(201)
        ).body,
      ).staff;
    },
    async signIn(staff: StaffMember) {
      return cookieOf(await request(signInApp(t)).post(`/sign-in/${staff.id}`).expect(201));
    },
    tokenRequest(cookie: string, app = t.app) {
      return request(app).post("/admin/v1/session/token").set("Cookie", cookieHeader(cookie)).set("Origin", ORIGIN);
    },
    async token(cookie: string, app = t.app) {
      return SessionToken.parse(
        (
          await request(app)
            .post("/admin/v1/session/token")
            .set("Cookie", cookieHeader(cookie))
            .set("Origin", ORIGIN)
            .expect(201)
        ).body,
      ).token;
    },
    signOut(cookie: string) {
      return api().post("/admin/v1/session/sign-out").set("Cookie", cookieHeader(cookie)).set("Origin", ORIGIN);
    },
    /** How many session tokens the database holds as usable. */
    async storedTokens() {
      return (await t.database.access.activeKeys()).filter((key) => key.token !== undefined).length;
    },
  };
}

describe.each(TEST_PROVIDERS)("session budgets on %s", (provider) => {
  const running: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((t) => t.close()));
  });
  async function start(env: Record<string, string> = {}) {
    const t = await createTestApp(env, provider);
    running.push(t);
    return { t, ...helpers(t) };
  }

  it('createSessionToken is limited per session (TOKENS_PER_SESSION_PER_MIN): "session-tokens" RateLimit fields on every answer, then 429 with Retry-After and nothing stored', async () => {
    const { t, api, invite, signIn, tokenRequest, storedTokens } = await start({
      TOKENS_PER_SESSION_PER_MIN: "3",
      METRICS_TOKEN,
    });
    const staff = await invite();
    const cookie = await signIn(staff);
    const bought: string[] = [];
    for (const left of [2, 1, 0]) {
      const answer = await tokenRequest(cookie).expect(201);
      expect(answer.headers["ratelimit-policy"]).toBe('"session-tokens";q=3;w=60');
      expect(answer.headers["ratelimit"]).toMatch(new RegExp(`^"session-tokens";r=${left};t=\\d+$`));
      bought.push(SessionToken.parse(answer.body).token);
    }
    const stored = await storedTokens();
    const refused = await tokenRequest(cookie);
    expectError(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
    expect(refused.headers["ratelimit-policy"]).toBe('"session-tokens";q=3;w=60');
    expect(refused.headers["ratelimit"]).toMatch(/^"session-tokens";r=0;t=\d+$/);
    expect(refused.body.message).toMatch(/Too many tokens bought for this session/);
    expect(await storedTokens()).toBe(stored);
    // The tokens bought within the budget still work; another session of the same person has a budget of its own.
    await api().get("/v1/pets").set("Authorization", `Bearer ${bought[2]}`).expect(200);
    await tokenRequest(await signIn(staff)).expect(201);
    const metrics = await api().get("/metrics").set("Authorization", `Bearer ${METRICS_TOKEN}`).expect(200);
    expect(metrics.text).toContain('petstore_limit_rejections_total{limit="session_tokens"} 1');
    void t;
  });

  it("TOKENS_PER_SESSION_PER_MIN is 30 by default; 0 turns it off (no RateLimit fields)", async () => {
    const byDefault = await start();
    const cookie = await byDefault.signIn(await byDefault.invite());
    for (let i = 0; i < 30; i++) await byDefault.tokenRequest(cookie).expect(201);
    expectError(await byDefault.tokenRequest(cookie), 429, "RATE_LIMITED");

    const off = await start({ TOKENS_PER_SESSION_PER_MIN: "0" });
    const unmetered = await off.signIn(await off.invite());
    for (let i = 0; i < 35; i++) {
      const answer = await off.tokenRequest(unmetered).expect(201);
      expect(answer.headers["ratelimit"]).toBeUndefined();
    }
  });

  it("minting tokens leaves keysVersion alone; ending a session, revoking a key and disabling a person move it", async () => {
    const { t, api, invite, signIn, token, signOut } = await start();
    const version = () => t.database.access.keysVersion();
    const staff = await invite();
    const cookie = await signIn(staff);
    const before = await version();
    for (let i = 0; i < 5; i++) await token(cookie);
    expect(await version()).toBe(before);

    await signOut(cookie).expect(204);
    const afterSignOut = await version();
    expect(afterSignOut).not.toBe(before);

    const created = CreatedApiKey.parse(
      (
        await api()
          .post("/admin/v1/keys")
          .set("Authorization", asAdmin)
          .send({ name: "Till", scope: "read" })
          .expect(201)
      ).body,
    );
    const afterCreate = await version();
    await api().post(`/admin/v1/keys/${created.key.id}/revoke`).set("Authorization", asAdmin).send({}).expect(200);
    const afterRevoke = await version();
    expect(afterRevoke).not.toBe(afterCreate);

    const other = await signIn(staff);
    await token(other);
    const beforeDisable = await version();
    await api().post(`/admin/v1/staff/${staff.id}/disable`).set("Authorization", asAdmin).send({}).expect(200);
    expect(await version()).not.toBe(beforeDisable);
  });

  it("a token minted on one app works on another sharing the database, which never reloads its whole key set for it; a sign-out still reaches it within 2 s", async () => {
    const { t, invite, signIn, token, signOut } = await start();
    const database = await openDatabase({ url: t.config.databaseUrl, poolSize: 2 });
    try {
      // Counts the other app's reads of the whole key set (the database still answers them).
      let loads = 0;
      const activeKeys = database.access.activeKeys.bind(database.access);
      database.access.activeKeys = () => {
        loads += 1;
        return activeKeys();
      };
      const other = createApp({ config: t.config, logger: createLogger(t.config, { write: () => {} }), database });
      const issued = CreatedApiKey.parse(
        (
          await request(t.app)
            .post("/admin/v1/keys")
            .set("Authorization", asAdmin)
            .send({ name: "Till", scope: "read" })
            .expect(201)
        ).body,
      );
      const asIssued = `Bearer ${issued.secret}`;
      const cookie = await signIn(await invite());
      // The other app reads its key set at the first issued key it is shown (after the key, the person and the session exist).
      await request(other).get("/v1/pets").set("Authorization", asIssued).expect(200);
      await sleep(100);
      const loadsBefore = loads;
      expect(loadsBefore).toBeGreaterThan(0);
      let last = "";
      for (let i = 0; i < 4; i++) {
        last = await token(cookie);
        // Older than 250 ms: each request here starts a refresh, which reads the version and, had it moved, every key.
        await sleep(300);
        await request(other).get("/v1/pets").set("Authorization", `Bearer ${last}`).expect(200);
      }
      await sleep(300);
      await request(other).get("/v1/pets").set("Authorization", asIssued).expect(200);
      await sleep(100);
      expect(loads).toBe(loadsBefore);

      await signOut(cookie).expect(204);
      const deadline = Date.now() + 2_000;
      let status = 200;
      while (status === 200 && Date.now() < deadline) {
        status = (await request(other).get("/v1/pets").set("Authorization", `Bearer ${last}`)).status;
        if (status === 200) await sleep(50);
      }
      expect(status).toBe(401);
    } finally {
      await database.close();
    }
  });

  it("a token another app looks up and finds gives its unit of the failure budget back: only guesses spend it", async () => {
    const { t, invite, signIn, token } = await start({ AUTH_FAILURES_PER_MIN: "2" });
    const database = await openDatabase({ url: t.config.databaseUrl, poolSize: 2 });
    try {
      const other = createApp({ config: t.config, logger: createLogger(t.config, { write: () => {} }), database });
      const cookie = await signIn(await invite());
      // Four tokens bought here, each new to the other app: four look-ups there, within a budget of two.
      for (let i = 0; i < 4; i++)
        await request(other)
          .get("/v1/pets")
          .set("Authorization", `Bearer ${await token(cookie)}`)
          .expect(200);
      // The budget is whole: two guesses are 401s, the third a 429.
      const guess = () =>
        request(other)
          .get("/v1/pets")
          .set("Authorization", `Bearer pst_${"q".repeat(43)}`);
      expectError(await guess(), 401, "UNAUTHORIZED");
      expectError(await guess(), 401, "UNAUTHORIZED");
      expectError(await guess(), 429, "RATE_LIMITED");
    } finally {
      await database.close();
    }
  });

  it("a sign-out with an unknown cookie spends the address's failure budget: 401 within it, 429 past it; a live session still signs out", async () => {
    const { invite, signIn, signOut, tokenRequest } = await start({ AUTH_FAILURES_PER_MIN: "2" });
    const unknown = "z".repeat(43);
    const first = await signOut(unknown);
    expectError(first, 401, "UNAUTHORIZED");
    expect(first.headers["ratelimit-policy"]).toBe('"auth-failures";q=2;w=60');
    expect(first.headers["ratelimit"]).toMatch(/^"auth-failures";r=1;t=\d+$/);
    expectError(await signOut(unknown), 401, "UNAUTHORIZED");
    const limited = await signOut(unknown);
    expectError(limited, 429, "RATE_LIMITED");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // The cookie is cleared whatever the answer.
    expect(String(limited.headers["set-cookie"])).toMatch(/^__Host-petstore-session=; Path=\/; Max-Age=0/);
    // One budget with the token endpoint's unknown cookies.
    expectError(await tokenRequest("q".repeat(43)), 429, "RATE_LIMITED");
    // A valid session is never refused for its address's failures.
    await signOut(await signIn(await invite())).expect(204);
  });
});

const sharedRedis = requireOrSkip("Redis (REDIS_TEST_URL)", await redisUnavailable());

describe.runIf(sharedRedis).each(TEST_PROVIDERS)("session tokens counted in Redis on %s", (provider) => {
  it("two apps on one database and one REDIS_URL spend one budget per session", async () => {
    const prefix = `petstore-test:${randomUUID()}`;
    const t = await createTestApp({ REDIS_URL: REDIS_TEST_URL, TOKENS_PER_SESSION_PER_MIN: "2" }, provider, prefix);
    const database = await openDatabase({ url: t.config.databaseUrl, poolSize: 2 });
    const logger = createLogger(t.config, { write: () => {} });
    const limits = abuseLimitsFromConfig(t.config, logger, { keyPrefix: prefix });
    try {
      await limits.whenReady();
      const other = createApp({ config: t.config, logger, database, abuseLimits: limits });
      const { invite, signIn, tokenRequest } = helpers(t);
      const cookie = await signIn(await invite());
      await tokenRequest(cookie).expect(201);
      await tokenRequest(cookie, other).expect(201);
      expectError(await tokenRequest(cookie), 429, "RATE_LIMITED");
      expectError(await tokenRequest(cookie, other), 429, "RATE_LIMITED");
    } finally {
      await limits.close();
      await database.close();
      await t.close();
    }
  });
});
