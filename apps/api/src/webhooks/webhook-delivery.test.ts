import { Pet } from "@petstore/contract";
import Sqlite from "better-sqlite3";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { sqliteFilePath } from "../base/database-url.js";
import { createMetrics } from "../ops/metrics.js";
import { Webhook } from "standardwebhooks";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../ops/logger.js";
import { execute, sql } from "../data/sql-work.js";
import { bearer, createTestApp, TEST_PROVIDERS, untilEventsVisible, type TestApp } from "../test/test-app.js";
import { receiversClosedAfterEach, type ReceivedCall } from "../test/webhook-receiver.js";
import { addressRefusal, resolveDestination, isPrivateAddress, DestinationRefused } from "./destination.js";
import { createWebhookSender, type WebhookSender } from "./sender.js";
import { newWebhookSecret } from "./signature.js";

const startReceiver = receiversClosedAfterEach();
const running: Array<{ t: TestApp; sender: WebhookSender }> = [];
afterEach(async () => {
  for (const { t, sender } of running.splice(0)) {
    await sender.stop();
    await t.close();
  }
});

/** A test app and a sender on its database, with the test retry schedule (four attempts in all). */
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
  return { t, sender };
}

/** What a customer does with each call: verify it with `standardwebhooks`, then parse it. */
function verified(secret: string, call: ReceivedCall) {
  const headers = Object.fromEntries(Object.entries(call.headers).map(([name, value]) => [name, String(value)]));
  return new Webhook(secret).verify(call.body, headers) as { type: string; timestamp: string; data: unknown };
}

const createPet = (t: TestApp, name = "Rex") =>
  request(t.app).post("/v1/pets").set("Authorization", bearer()).send({ name, categoryId: 1, status: "available" });

describe.each(TEST_PROVIDERS)("webhook delivery on %s", (provider) => {
  it("sends pet.created and key.created, signed so standardwebhooks verifies them, to each subscribed endpoint", async () => {
    const { t } = await appWithSender(provider);
    const all = await startReceiver();
    const petsOnly = await startReceiver();
    const keysOnly = await startReceiver();
    const secret = newWebhookSecret();
    const base = { description: null, secret, createdBy: "test" };
    await t.database.webhooks.createEndpoint({ ...base, url: all.url, eventTypes: [] });
    await t.database.webhooks.createEndpoint({ ...base, url: petsOnly.url, eventTypes: ["pet.created"] });
    await t.database.webhooks.createEndpoint({
      ...base,
      url: keysOnly.url,
      eventTypes: ["key.created", "key.revoked"],
    });

    const created = await createPet(t);
    expect(created.status).toBe(201);
    const pet = Pet.parse(created.body);
    const [toAll] = await all.waitForCalls(1);
    const [toPets] = await petsOnly.waitForCalls(1);
    for (const call of [toAll!, toPets!]) {
      const event = verified(secret, call);
      expect(event).toEqual({ type: "pet.created", timestamp: expect.any(String), data: pet });
      expect(new Date(event.timestamp).toISOString()).toBe(event.timestamp);
      expect(call.headers["content-type"]).toBe("application/json");
      expect(call.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    }
    // One event: the same webhook-id at every endpoint.
    expect(toAll!.headers["webhook-id"]).toBe(toPets!.headers["webhook-id"]);

    const key = await request(t.app)
      .post("/admin/v1/keys")
      .set("Authorization", bearer())
      .send({ name: "ci", scope: "read" });
    expect(key.status).toBe(201);
    const [keyCall] = await keysOnly.waitForCalls(1);
    expect(verified(secret, keyCall!)).toEqual({
      type: "key.created",
      timestamp: expect.any(String),
      data: key.body.key,
    });
    await all.waitForCalls(2);
    expect(petsOnly.calls).toHaveLength(1);

    const [delivery] = await t.database.webhooks.listDeliveries({ webhookId: 2, take: 10 });
    expect(delivery).toMatchObject({
      status: "succeeded",
      eventType: "pet.created",
      eventId: toAll!.headers["webhook-id"],
    });
    expect(delivery!.attempts).toEqual([
      { at: expect.any(String), statusCode: 200, error: null, durationMs: expect.any(Number), answer: "answer 0" },
    ]);
  });

  it("writes no delivery when no endpoint is subscribed, and none for a disabled one", async () => {
    const { t } = await appWithSender(provider);
    const receiver = await startReceiver();
    const endpoint = await t.database.webhooks.createEndpoint({
      url: receiver.url,
      description: null,
      eventTypes: ["key.revoked"],
      secret: newWebhookSecret(),
      createdBy: "t",
    });
    const disabled = await t.database.webhooks.createEndpoint({
      url: receiver.url,
      description: null,
      eventTypes: [],
      secret: newWebhookSecret(),
      createdBy: "t",
    });
    await t.database.webhooks.updateEndpoint(disabled.id, { enabled: false });
    expect((await createPet(t)).status).toBe(201);
    expect(await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 10 })).toEqual([]);
    expect(await t.database.webhooks.listDeliveries({ webhookId: disabled.id, take: 10 })).toEqual([]);
  });
});

describe("webhook retries and refusals (SQLite)", () => {
  it("retries a failing endpoint with the same webhook-id, four attempts in all, then marks it failed", async () => {
    const { t } = await appWithSender("sqlite");
    const receiver = await startReceiver(() => 503);
    const secret = newWebhookSecret();
    const endpoint = await t.database.webhooks.createEndpoint({
      url: receiver.url,
      description: null,
      eventTypes: [],
      secret,
      createdBy: "t",
    });
    await createPet(t);
    const calls = await receiver.waitForCalls(4, 15_000);
    for (const call of calls) verified(secret, call);
    expect(new Set(calls.map((call) => call.headers["webhook-id"])).size).toBe(1);
    // 1 s, 1 s, 2 s apart, ±10 %.
    const gaps = calls.slice(1).map((call, i) => call.at - calls[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(850);
    expect(gaps[2]).toBeGreaterThanOrEqual(1750);
    await expect
      .poll(async () => (await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 1 }))[0]?.status)
      .toBe("failed");
    const [delivery] = await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 1 });
    expect(delivery!.attempts.map((attempt) => attempt.statusCode)).toEqual([503, 503, 503, 503]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.calls).toHaveLength(4);
    const after = await t.database.webhooks.findEndpoint(endpoint.id);
    expect(after).toMatchObject({ enabled: true, failingSince: expect.any(Date) });
  });

  it("disables the endpoint at once on 410 Gone", async () => {
    const { t } = await appWithSender("sqlite");
    const receiver = await startReceiver(() => 410);
    const endpoint = await t.database.webhooks.createEndpoint({
      url: receiver.url,
      description: null,
      eventTypes: [],
      secret: newWebhookSecret(),
      createdBy: "t",
    });
    await createPet(t);
    await receiver.waitForCalls(1);
    await expect.poll(async () => (await t.database.webhooks.findEndpoint(endpoint.id))?.enabled).toBe(false);
    expect((await t.database.webhooks.findEndpoint(endpoint.id))!.disabledReason).toMatch(/410 Gone/);
    expect((await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 1 }))[0]).toMatchObject({
      status: "failed",
    });
    await createPet(t, "Second");
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(receiver.calls).toHaveLength(1);
  });

  it("refuses at send time an endpoint whose host is a private address: a failed attempt, nothing sent", async () => {
    const { t } = await appWithSender("sqlite", { WEBHOOK_ALLOW_PRIVATE: "false", WEBHOOK_RETRY_SCHEDULE: "1s" });
    const receiver = await startReceiver();
    // Stored directly: as if it had resolved to a public address at registration and to loopback now (DNS rebinding).
    const endpoint = await t.database.webhooks.createEndpoint({
      url: receiver.url,
      description: null,
      eventTypes: [],
      secret: newWebhookSecret(),
      createdBy: "t",
    });
    await createPet(t);
    await expect
      .poll(async () => (await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 1 }))[0]?.status, {
        timeout: 5_000,
      })
      .toBe("failed");
    const [delivery] = await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 1 });
    expect(delivery!.attempts).toHaveLength(2);
    expect(delivery!.attempts[0]).toMatchObject({
      statusCode: null,
      error: expect.stringMatching(/127\.0\.0\.1.*may not reach/),
    });
    expect(receiver.calls).toHaveLength(0);
  });

  it("signs with the new and the old secret while a rotation overlaps", async () => {
    const { t } = await appWithSender("sqlite");
    const receiver = await startReceiver();
    const old = newWebhookSecret();
    const endpoint = await t.database.webhooks.createEndpoint({
      url: receiver.url,
      description: null,
      eventTypes: [],
      secret: old,
      createdBy: "t",
    });
    const rotated = newWebhookSecret();
    await t.database.webhooks.rotateSecret(endpoint.id, rotated, new Date(Date.now() + 24 * 3_600_000));
    await createPet(t);
    const [call] = await receiver.waitForCalls(1);
    expect(String(call!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verified(rotated, call!).type).toBe("pet.created");
    expect(verified(old, call!).type).toBe("pet.created");
  });
});

describe("the event log and the change commit together (SQLite)", () => {
  it("a change rolled back after its event was logged leaves neither the pet nor a delivery", async () => {
    const { t } = await appWithSender("sqlite");
    const receiver = await startReceiver();
    const endpoint = await t.database.webhooks.createEndpoint({
      url: receiver.url,
      description: null,
      eventTypes: [],
      secret: newWebhookSecret(),
      createdBy: "t",
    });
    // Fails the transaction after the event log's row is in: as any fault between the writes and the commit.
    const side = new Sqlite(sqliteFilePath(t.config.databaseUrl));
    side.exec(
      `CREATE TRIGGER "fail_after_event" AFTER INSERT ON "Event" BEGIN SELECT RAISE(ABORT, 'injected fault'); END`,
    );
    side.close();
    expect((await createPet(t, "Never")).status).toBe(500);
    expect(await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 10 })).toEqual([]);
    expect(await t.database.pets.list({ take: 10 })).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.calls).toHaveLength(0);
  });

  it("counts deliveries and attempts, and reports the oldest pending delivery's age", async () => {
    const { t } = await appWithSender("sqlite", { WEBHOOK_RETRY_SCHEDULE: "1s" });
    const receiver = await startReceiver((n) => (n === 0 ? 500 : 200));
    const metrics = createMetrics({ database: t.database, enabled: false, webhooks: t.database.webhooks });
    const sender = createWebhookSender({
      repository: t.database.webhooks,
      logger: createLogger(t.config, { write: () => {} }),
      ...t.config.webhooks,
      pollMs: 50,
      onDelivered: metrics.webhookDelivered,
      onAttempt: metrics.webhookAttempt,
    });
    await running[0]!.sender.stop();
    running[0]!.sender = sender;
    sender.start();
    await t.database.webhooks.createEndpoint({
      url: receiver.url,
      description: null,
      eventTypes: [],
      secret: newWebhookSecret(),
      createdBy: "t",
    });
    await createPet(t);
    await receiver.waitForCalls(1);
    const pending = await metrics.registry.getSingleMetricAsString("petstore_webhook_oldest_pending_seconds");
    expect(Number(/ ([0-9.e-]+)$/m.exec(pending)?.[1])).toBeGreaterThan(0);
    await receiver.waitForCalls(2);
    await expect
      .poll(async () => await metrics.registry.getSingleMetricAsString("petstore_webhook_deliveries_total"))
      .toMatch(/outcome="succeeded"} 1/);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/petstore_webhook_deliveries_total{outcome="retrying"} 1/);
    expect(text).toMatch(/petstore_webhook_attempts_total{status_class="5xx"} 1/);
    expect(text).toMatch(/petstore_webhook_attempts_total{status_class="2xx"} 1/);
    expect(text).toMatch(/petstore_webhook_oldest_pending_seconds 0/);
  });
});

describe("the sender's shutdown (SQLite)", () => {
  it("gives back a delivery it holds when stopped mid-send: no attempt recorded, sent at once by the next sender", async () => {
    const { t, sender } = await appWithSender("sqlite");
    let hang = true;
    const hanging: Array<() => void> = [];
    const hangingServer = createServer((req, res) => {
      req.resume();
      if (hang) hanging.push(() => res.destroy());
      else res.end("ok");
    });
    await new Promise<void>((resolve) => hangingServer.listen(0, "127.0.0.1", resolve));
    const port = (hangingServer.address() as AddressInfo).port;
    const endpoint = await t.database.webhooks.createEndpoint({
      url: `http://127.0.0.1:${port}/hook`,
      description: null,
      eventTypes: [],
      secret: newWebhookSecret(),
      createdBy: "t",
    });
    await createPet(t);
    await expect.poll(() => hanging.length).toBe(1);
    const stopping = performance.now();
    await sender.stop();
    expect(performance.now() - stopping).toBeLessThan(1_000);
    const [held] = await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 1 });
    expect(held).toMatchObject({ status: "pending", attempts: [] });
    // Due again for any sender at once: no lease to wait out.
    hang = false;
    const next = createWebhookSender({
      repository: t.database.webhooks,
      logger: createLogger(t.config, { write: () => {} }),
      ...t.config.webhooks,
      pollMs: 50,
    });
    next.start();
    try {
      await expect
        .poll(async () => (await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 1 }))[0]?.status)
        .toBe("succeeded");
    } finally {
      await next.stop();
      for (const close of hanging) close();
      hangingServer.closeAllConnections();
      await new Promise((resolve) => hangingServer.close(resolve));
    }
  });
});

describe("destinations", () => {
  it("knows loopback, private, link-local and metadata addresses", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "::1",
      "fe80::1",
      "fd00:ec2::254",
      "::ffff:127.0.0.1",
      "0.0.0.0",
      "100.64.0.1",
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700::1111"])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it("refuses every ipaddr.js range but unicast, and judges the IPv4 address an IPv6 address carries to a gateway", () => {
    const refused: Array<[string, RegExp]> = [
      // IPv4-compatible (::/96), written both ways: ipaddr.js reads the dotted form as IPv4-mapped.
      ["::127.0.0.1", /carrying 127\.0\.0\.1 \(loopback\)/],
      ["::7f00:1", /IPv4-compatible, carrying 127\.0\.0\.1 \(loopback\)/],
      ["::a00:1", /IPv4-compatible, carrying 10\.0\.0\.1 \(private\)/],
      ["::ffff:0:7f00:1", /^rfc6145, carrying 127\.0\.0\.1/],
      ["::ffff:a9fe:a9fe", /^ipv4Mapped, carrying 169\.254\.169\.254 \(linkLocal\)/],
      ["64:ff9b::7f00:1", /^rfc6052, carrying 127\.0\.0\.1/],
      // RFC 8215's local-use prefix: wherever the IPv4 address sits, the whole /48 is refused.
      ["64:ff9b:1::7f00:1", /^rfc6052$/],
      ["64:ff9b:1::808:808", /^rfc6052$/],
      ["64:ff9b:1:808:8:800::", /^rfc6052$/],
      ["2002:7f00:1::1", /^6to4, carrying 127\.0\.0\.1/],
      ["2002:c0a8:101::1", /^6to4, carrying 192\.168\.1\.1 \(private\)/],
      // Teredo: the client's address is stored with its bits flipped; here 10.0.0.1's.
      ["2001:0:808:808:0:0:f5ff:fffe", /^teredo, carrying 10\.0\.0\.1/],
      ["fec0::1", /^deprecatedSiteLocal$/],
      ["100::1", /^discard$/],
      ["2001:db8::", /^reserved$/],
      ["2001:2::1", /^benchmarking$/],
      ["ff02::1", /^multicast$/],
      ["::", /^unspecified$/],
      ["192.0.2.1", /^reserved$/],
      ["255.255.255.255", /^broadcast$/],
      ["not-an-address", /not an IP address/],
    ];
    for (const [address, why] of refused) expect(addressRefusal(address), address).toMatch(why);
    for (const address of [
      "8.8.8.8",
      "1.1.1.1",
      "2606:4700::1111",
      "2a00:1450:4001:81c::200e",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
      "2002:808:808::1",
      "2001:0:808:808:0:0:f7f7:f7f7",
    ])
      expect(addressRefusal(address), address).toBeUndefined();
  });

  it("refuses a refused range at send time, as a failed attempt naming it", async () => {
    const { t } = await appWithSender("sqlite", { WEBHOOK_ALLOW_PRIVATE: "false", WEBHOOK_RETRY_SCHEDULE: "1h" });
    const endpoint = await t.database.webhooks.createEndpoint({
      url: "http://[::ffff:0:7f00:1]:9/hook",
      description: null,
      eventTypes: [],
      secret: newWebhookSecret(),
      createdBy: "t",
    });
    await createPet(t);
    await expect
      .poll(
        async () => (await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 1 }))[0]?.attempts.length,
        { timeout: 5_000 },
      )
      .toBe(1);
    const [delivery] = await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 1 });
    expect(delivery!.attempts).toEqual([
      expect.objectContaining({
        statusCode: null,
        error: expect.stringMatching(/rfc6145, carrying 127\.0\.0\.1.*may not reach/),
      }),
    ]);
  });

  it("refuses http://, a private host and a host that does not resolve, naming url", async () => {
    const rules = { allowHttp: false, allowPrivate: false };
    await expect(resolveDestination("http://93.184.216.34/hook", rules)).rejects.toThrow(
      /url must start with https:\/\//,
    );
    await expect(resolveDestination("https://127.0.0.1/hook", rules)).rejects.toThrow(DestinationRefused);
    await expect(resolveDestination("https://localhost/hook", rules)).rejects.toThrow(/resolves to .*may not reach/);
    await expect(resolveDestination("https://169.254.169.254/latest/meta-data", rules)).rejects.toThrow(/metadata/);
    await expect(resolveDestination("https://no-such-host.invalid/hook", rules)).rejects.toThrow(
      /url's host no-such-host.invalid does not resolve/,
    );
    await expect(
      resolveDestination("http://127.0.0.1:9/hook", { allowHttp: true, allowPrivate: true }),
    ).resolves.toMatchObject({ address: "127.0.0.1" });
  });
});

describe.each(TEST_PROVIDERS)("recovering an endpoint's events (recoverWebhook) on %s", (provider) => {
  it("sends again what it did not answer 2xx, events raised while it was disabled included, each with its event's webhook-id", async () => {
    const { t } = await appWithSender(provider);
    const receiver = await startReceiver();
    const secret = newWebhookSecret();
    const since = new Date(Date.now() - 1_000).toISOString();
    // Before the endpoint existed: never its own, so never recovered.
    expect((await createPet(t, "Before it existed")).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const endpoint = await t.database.webhooks.createEndpoint({
      url: receiver.url,
      description: null,
      eventTypes: ["pet.created", "pet.updated"],
      secret,
      createdBy: "test",
    });
    const admin = (path: string) => request(t.app).post(`/admin/v1/webhooks/${path}`).set("Authorization", bearer());

    expect((await createPet(t, "Answered")).status).toBe(201);
    expect((await createPet(t, "Given up")).status).toBe(201);
    await receiver.waitForCalls(2);
    const answered = async () =>
      (await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 10 })).every(
        (d) => d.status === "succeeded",
      );
    await expect.poll(answered).toBe(true);
    // The second one's retries gave up, as after days of failures.
    await t.database.sql.transaction(() =>
      execute(sql`UPDATE "WebhookDelivery" SET "status" = 'failed' WHERE "data" LIKE '%Given up%'`),
    );
    await t.database.webhooks.updateEndpoint(endpoint.id, { enabled: false });
    await admin(`${endpoint.id}/recover`).send({ since }).expect(409);
    expect((await createPet(t, "While disabled")).status).toBe(201);
    const unsubscribed = await request(t.app)
      .post("/admin/v1/keys")
      .set("Authorization", bearer())
      .send({ name: "not its type", scope: "read" });
    expect(unsubscribed.status).toBe(201);
    await untilEventsVisible(t.database, 5);
    await t.database.webhooks.fanOut(200);
    expect(await t.database.webhooks.listDeliveries({ webhookId: endpoint.id, take: 10 })).toHaveLength(2);
    await t.database.webhooks.updateEndpoint(endpoint.id, { enabled: true });

    const recovered = await admin(`${endpoint.id}/recover`).send({ since }).expect(202);
    expect(recovered.body).toEqual({ queued: 2 });
    const calls = await receiver.waitForCalls(4);
    const again = calls
      .slice(2)
      .map((call) => ({ id: String(call.headers["webhook-id"]), event: verified(secret, call) }));
    expect(again.map(({ event }) => (event.data as { name: string }).name).sort()).toEqual([
      "Given up",
      "While disabled",
    ]);
    const log = (await request(t.app).get("/v1/events?types=pet.created").set("Authorization", bearer()).expect(200))
      .body as Array<{ id: string; data: { name: string } }>;
    for (const { id, event } of again)
      expect(log.find((logged) => logged.data.name === (event.data as { name: string }).name)?.id).toBe(id);
    // Answered now, every one: a second recovery queues nothing.
    await expect.poll(answered).toBe(true);
    expect((await admin(`${endpoint.id}/recover`).send({ since }).expect(202)).body).toEqual({ queued: 0 });
    // Outside the window: nothing.
    expect(
      (
        await admin(`${endpoint.id}/recover`)
          .send({ since: new Date(Date.now() + 60_000).toISOString() })
          .expect(202)
      ).body,
    ).toEqual({ queued: 0 });
  });

  it("refuses an unknown endpoint (404) and a window that ends before it starts (400)", async () => {
    const { t } = await appWithSender(provider);
    const receiver = await startReceiver();
    const endpoint = await t.database.webhooks.createEndpoint({
      url: receiver.url,
      description: null,
      eventTypes: [],
      secret: newWebhookSecret(),
      createdBy: "test",
    });
    const recover = (id: number, body: object) =>
      request(t.app).post(`/admin/v1/webhooks/${id}/recover`).set("Authorization", bearer()).send(body);
    expect((await recover(endpoint.id + 1, { since: "2026-01-01T00:00:00Z" })).status).toBe(404);
    const bad = await recover(endpoint.id, { since: "2026-01-02T00:00:00Z", until: "2026-01-01T00:00:00Z" });
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual([{ field: "body.until", message: "until must not be before since" }]);
    expect((await recover(endpoint.id, {})).status).toBe(400);
  });
});
