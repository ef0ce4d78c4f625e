import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "../base/env.js";
import { openDatabase } from "../database.js";
import { createLogger } from "../ops/logger.js";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import { createWebhookSender, type WebhookSender } from "./sender.js";
import { newWebhookSecret } from "./signature.js";
import { ATTEMPTS_KEPT, type ClaimShares } from "./webhook-repository.js";

// Fair sending, the resend that waits for the attempt in flight, the bounded attempt log and the old
// secret erased after its overlap (issue 46, DESIGN "Sessions and senders that hold").

const running: Array<{ t: TestApp; sender?: WebhookSender }> = [];
const receivers: TimedReceiver[] = [];
afterEach(async () => {
  for (const { t, sender } of running.splice(0)) {
    await sender?.stop();
    await t.close();
  }
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function appWithSender(provider: (typeof TEST_PROVIDERS)[number], env: Record<string, string> = {}) {
  const t = await createTestApp(
    { WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "1s,1s,2s", ...env },
    provider,
  );
  const sender = createWebhookSender({
    repository: t.database.webhooks,
    logger: createLogger(t.config, { write: () => {} }),
    ...t.config.webhooks,
    pollMs: 50,
  });
  sender.start();
  running.push({ t, sender });
  return t;
}

async function appAlone(provider: (typeof TEST_PROVIDERS)[number]) {
  const t = await createTestApp({ WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE: "true" }, provider);
  running.push({ t });
  return t;
}

interface TimedReceiver {
  url: string;
  calls: Array<{ body: string; at: number }>;
  /** Requests received and not yet answered, now and at most. */
  open: () => number;
  mostOpen: () => number;
  close: () => Promise<void>;
}

const after = (ms: number) => () => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A receiver that answers 200 once `answerWhen()` resolves for each request, counting the requests it holds at once. */
async function startTimedReceiver(answerWhen: () => Promise<void>): Promise<TimedReceiver> {
  const calls: TimedReceiver["calls"] = [];
  let open = 0;
  let mostOpen = 0;
  const server = createServer((req, res) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      calls.push({ body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      void answerWhen().then(() => res.end("ok"));
    });
    // Answered, or cut off by the sender (a timeout, a stop).
    res.on("close", () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const receiver: TimedReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    calls,
    open: () => open,
    mostOpen: () => mostOpen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  receivers.push(receiver);
  return receiver;
}

const endpointAt = (t: TestApp, url: string) =>
  t.database.webhooks.createEndpoint({
    url,
    description: null,
    eventTypes: ["pet.created"],
    secret: newWebhookSecret(),
    createdBy: "test",
  });

describe.each(TEST_PROVIDERS)("the webhook sender holds on %s", (provider) => {
  it("fair sending: a receiver that answers after seconds holds at most its share, and another's events still arrive within 2 s of their creates", async () => {
    // The slow receiver answered 200 after 9.5 s; 4 s keeps its shape (every send outlasts the 2 s
    // bound, far within WEBHOOK_TIMEOUT_MS) and the test short.
    const slowMs = 4_000;
    const t = await appWithSender(provider);
    const perEndpoint = t.config.webhooks.maxInFlightPerEndpoint;
    expect(perEndpoint).toBe(4);
    const slow = await startTimedReceiver(after(slowMs));
    const fast = await startTimedReceiver(after(0));
    await endpointAt(t, slow.url);
    await endpointAt(t, fast.url);

    const answeredAt = new Map<number, number>();
    for (let n = 0; n < 48; n++) {
      const response = await request(t.app)
        .post("/v1/pets")
        .set("Authorization", bearer())
        .send({ name: `Pet ${n}`, categoryId: 1 });
      expect(response.status).toBe(201);
      answeredAt.set((response.body as { id: number }).id, Date.now());
    }
    await expect.poll(() => fast.calls.length, { timeout: 15_000 }).toBe(48);
    const lags = fast.calls.map(
      ({ body, at }) => at - answeredAt.get((JSON.parse(body) as { data: { id: number } }).data.id)!,
    );
    expect(Math.max(...lags)).toBeLessThan(2_000);

    // The slow one's first sends are answered, and the next ones are claimed: still never more than its share at once.
    await expect.poll(() => slow.calls.length, { timeout: slowMs + 5_000 }).toBeGreaterThan(perEndpoint);
    expect(slow.mostOpen()).toBe(perEndpoint);
  }, 60_000);

  it("a resend while an attempt is being sent answers 409 CONFLICT: 40 at once make at most one POST at a time, and every attempt is recorded", async () => {
    const t = await appWithSender(provider);
    // Answered at once until the gate closes; then held until it opens again.
    let gate: Promise<void> = Promise.resolve();
    let openGate = () => {};
    const receiver = await startTimedReceiver(() => gate);
    const endpoint = await endpointAt(t, receiver.url);
    const queued = await request(t.app).post(`/admin/v1/webhooks/${endpoint.id}/test`).set("Authorization", bearer());
    expect(queued.status).toBe(202);
    const deliveryId = (queued.body as { id: number }).id;
    const delivery = async () => (await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 1 }))[0]!;
    await expect.poll(async () => (await delivery()).status).toBe("succeeded");

    gate = new Promise((resolve) => (openGate = resolve));
    const resend = () =>
      request(t.app)
        .post(`/admin/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}/resend`)
        .set("Authorization", bearer());
    // 40 at once from rest: those before the claim make it due again (one claim, one POST), those after it wait.
    const burst = await Promise.all(Array.from({ length: 40 }, resend));
    expect(burst.every((response) => response.status === 202 || response.status === 409)).toBe(true);
    expect(burst.some((response) => response.status === 202)).toBe(true);
    await expect.poll(() => receiver.open()).toBe(1);
    // 40 at once while that attempt is in flight: every one refused.
    const whileSending = await Promise.all(Array.from({ length: 40 }, resend));
    for (const response of whileSending) {
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({
        code: "CONFLICT",
        status: 409,
        message: expect.stringMatching(/being sent/),
      });
    }
    openGate();
    await expect.poll(async () => (await delivery()).attempts.length, { timeout: 5_000 }).toBe(receiver.calls.length);
    expect(receiver.mostOpen()).toBe(1);
    expect(receiver.calls).toHaveLength(2);
    expect(await delivery()).toMatchObject({
      status: "succeeded",
      attempts: [{ statusCode: 200 }, { statusCode: 200 }],
    });
    expect((await resend()).status).toBe(202);
  });

  it("the repository refuses a resend while the lease is live, accepts one once it ran out, and keeps the newest 100 attempts", async () => {
    const t = await appAlone(provider);
    const endpoint = await endpointAt(t, "http://127.0.0.1:9/hook");
    const start = Date.now();
    const at = (seconds: number) => new Date(start + seconds * 1_000);
    const shares: ClaimShares = { perEndpoint: 4, inFlight: new Map(), lastEndpoint: 0 };
    const created = await t.database.webhooks.createTestDelivery(endpoint.id, "msg_holds", "{}", at(0));

    const [held] = await t.database.webhooks.claimDue(at(0), at(5), "first", 1, shares);
    expect(held).toMatchObject({ id: created.id });
    expect(await t.database.webhooks.resendDelivery(endpoint.id, created.id, at(4))).toBe("being sent");
    expect(await t.database.webhooks.resendDelivery(endpoint.id, created.id + 1_000, at(4))).toBeNull();
    // The lease ran out (its sender is gone): the resend goes through, and the next claim is another's.
    expect(await t.database.webhooks.resendDelivery(endpoint.id, created.id, at(6))).toMatchObject({
      id: created.id,
      status: "pending",
    });

    const attempts = ATTEMPTS_KEPT + 5;
    for (let n = 0; n < attempts; n++) {
      const now = at(10 + n * 10);
      if (n > 0) expect(await t.database.webhooks.resendDelivery(endpoint.id, created.id, now)).not.toBe("being sent");
      const [claimed] = await t.database.webhooks.claimDue(now, at(15 + n * 10), `claim ${n}`, 1, shares);
      expect(claimed, `claim ${n}`).toBeDefined();
      const attempt = { at: now.toISOString(), statusCode: 500, error: null, durationMs: n, answer: `answer ${n}` };
      await t.database.webhooks.recordOutcome(claimed!, {
        attempt,
        status: "failed",
        nextAttemptAt: now,
        endpoint: null,
      });
    }
    const [kept] = await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 1 });
    expect(kept!.attempts).toHaveLength(ATTEMPTS_KEPT);
    expect(kept!.attempts.map((attempt) => attempt.durationMs)).toEqual(
      Array.from({ length: ATTEMPTS_KEPT }, (_, n) => n + 5),
    );
  }, 60_000);

  it("claims go round the endpoints, each at most its share in flight here, starting after the endpoint served last", async () => {
    const t = await appAlone(provider);
    const [a, b, c] = [
      await endpointAt(t, "http://127.0.0.1:9/a"),
      await endpointAt(t, "http://127.0.0.1:9/b"),
      await endpointAt(t, "http://127.0.0.1:9/c"),
    ];
    const now = new Date();
    // a's backlog is older than anyone's: oldest due first would give it every slot.
    for (let n = 0; n < 6; n++)
      await t.database.webhooks.createTestDelivery(a!.id, `msg_a${n}`, "{}", new Date(now.getTime() - 60_000 + n));
    for (let n = 0; n < 2; n++) await t.database.webhooks.createTestDelivery(b!.id, `msg_b${n}`, "{}", now);
    await t.database.webhooks.createTestDelivery(c!.id, "msg_c0", "{}", now);
    const lease = new Date(now.getTime() + 60_000);

    const first = await t.database.webhooks.claimDue(now, lease, "first", 4, {
      perEndpoint: 2,
      inFlight: new Map([[a!.id, 1]]),
      lastEndpoint: b!.id,
    });
    // Turn one from the endpoint after b (c, then round to a, b), then turn two; a has room for one.
    expect(first.map((delivery) => delivery.eventId)).toEqual(["msg_c0", "msg_a0", "msg_b0", "msg_b1"]);
    const second = await t.database.webhooks.claimDue(now, lease, "second", 16, {
      perEndpoint: 2,
      inFlight: new Map([
        [a!.id, 1],
        [b!.id, 2],
        [c!.id, 1],
      ]),
      lastEndpoint: b!.id,
    });
    expect(second.map((delivery) => delivery.eventId)).toEqual(["msg_a1"]);
  });

  it("two senders on connections of their own (two replicas) deliver each event once to each endpoint", async () => {
    const t = await appWithSender(provider);
    const other = await openDatabase({
      url: t.config.databaseUrl,
      poolSize: 4,
      sqliteBusyTimeoutMs: t.config.sqliteBusyTimeoutMs,
    });
    const second = createWebhookSender({
      repository: other.webhooks,
      logger: createLogger(t.config, { write: () => {} }),
      ...t.config.webhooks,
      pollMs: 20,
    });
    second.start();
    try {
      const receivers = [await startTimedReceiver(after(0)), await startTimedReceiver(after(0))];
      for (const receiver of receivers) await endpointAt(t, receiver.url);
      await Promise.all(
        Array.from({ length: 30 }, (_, n) =>
          request(t.app)
            .post("/v1/pets")
            .set("Authorization", bearer())
            .send({ name: `Pet ${n}`, categoryId: 1 }),
        ),
      );
      for (const receiver of receivers) await expect.poll(() => receiver.calls.length, { timeout: 15_000 }).toBe(30);
      // Both senders looked many times meanwhile: a second copy would have come by now.
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (const receiver of receivers) {
        expect(receiver.calls).toHaveLength(30);
        expect(
          new Set(receiver.calls.map(({ body }) => (JSON.parse(body) as { data: { id: number } }).data.id)).size,
        ).toBe(30);
      }
    } finally {
      await second.stop();
      await other.close();
    }
  });

  it("erases an old secret once its 24 h overlap has ended, and keeps one still overlapping", async () => {
    const t = await appWithSender(provider);
    const ended = await endpointAt(t, "http://127.0.0.1:9/ended");
    const overlapping = await endpointAt(t, "http://127.0.0.1:9/overlapping");
    await t.database.webhooks.rotateSecret(ended.id, newWebhookSecret(), new Date(Date.now() - 1_000));
    const until = new Date(Date.now() + 24 * 3_600_000);
    await t.database.webhooks.rotateSecret(overlapping.id, newWebhookSecret(), until);
    // The sender's loop erases it.
    await expect.poll(async () => (await t.database.webhooks.findEndpoint(ended.id))?.previousSecret).toBeNull();
    expect(await t.database.webhooks.findEndpoint(ended.id)).toMatchObject({
      previousSecret: null,
      previousSecretUntil: null,
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(await t.database.webhooks.findEndpoint(overlapping.id)).toMatchObject({
      previousSecret: overlapping.secret,
      previousSecretUntil: until,
    });

    // A day later, by a moved clock: its overlap has ended too.
    await t.database.webhooks.eraseEndedSecrets(new Date(until.getTime()));
    expect(await t.database.webhooks.findEndpoint(overlapping.id)).toMatchObject({
      previousSecret: null,
      previousSecretUntil: null,
    });
  });
});

describe("WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT", () => {
  it("is 4 unless set, and a positive integer when set", () => {
    const base = { NODE_ENV: "test", API_KEYS: "test-key-0123456789abcdefghijklmnop" };
    expect(readConfig(base).webhooks.maxInFlightPerEndpoint).toBe(4);
    expect(readConfig({ ...base, WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: "2" }).webhooks.maxInFlightPerEndpoint).toBe(2);
    for (const refused of ["0", "-1", "1.5", "four"])
      expect(() => readConfig({ ...base, WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: refused }), refused).toThrow(
        expect.objectContaining({
          constructor: ConfigError,
          message: expect.stringMatching(/WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT must be a positive integer/),
        }),
      );
  });
});
