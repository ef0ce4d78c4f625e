import { AuditEvents, Deliveries, Delivery, Webhook, Webhooks, WebhookWithSecret } from "@petstore/contract";
import { Webhook as Verifier } from "standardwebhooks";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../ops/logger.js";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import { receiversClosedAfterEach, type ReceivedCall } from "../test/webhook-receiver.js";
import { createWebhookSender, type WebhookSender } from "./sender.js";

const startReceiver = receiversClosedAfterEach();
const running: Array<{ t: TestApp; sender?: WebhookSender }> = [];
afterEach(async () => {
  for (const { t, sender } of running.splice(0)) {
    await sender?.stop();
    await t.close();
  }
});

const LOCAL = { WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "1s,1s,2s" };

async function start(
  provider: (typeof TEST_PROVIDERS)[number],
  env: Record<string, string> = LOCAL,
  withSender = true,
) {
  const t = await createTestApp(env, provider);
  const sender = withSender
    ? createWebhookSender({
        repository: t.database.webhooks,
        logger: createLogger(t.config, { write: () => {} }),
        ...t.config.webhooks,
        pollMs: 50,
      })
    : undefined;
  sender?.start();
  running.push({ t, sender });
  return t;
}

const admin = (t: TestApp) => ({
  get: (path: string) => request(t.app).get(`/admin/v1${path}`).set("Authorization", bearer()),
  post: (path: string, body: object = {}) =>
    request(t.app).post(`/admin/v1${path}`).set("Authorization", bearer()).send(body),
  patch: (path: string, body: object) =>
    request(t.app).patch(`/admin/v1${path}`).set("Authorization", bearer()).send(body),
  delete: (path: string) => request(t.app).delete(`/admin/v1${path}`).set("Authorization", bearer()),
});

function verified(secret: string, call: ReceivedCall) {
  const headers = Object.fromEntries(Object.entries(call.headers).map(([name, value]) => [name, String(value)]));
  return new Verifier(secret).verify(call.body, headers) as { type: string; data: unknown };
}

describe.each(TEST_PROVIDERS)("webhook operations on %s", (provider) => {
  it("registers an endpoint, shows its secret once, sends a test event, lists and resends deliveries, rotates, disables, deletes; each change audited", async () => {
    const t = await start(provider);
    const api = admin(t);
    const receiver = await startReceiver();
    const created = await api.post("/webhooks", {
      url: receiver.url,
      description: "Stock system",
      eventTypes: ["pet.created"],
    });
    expect(created.status).toBe(201);
    const { webhook, secret } = WebhookWithSecret.parse(created.body);
    expect(webhook).toMatchObject({
      url: receiver.url,
      description: "Stock system",
      eventTypes: ["pet.created"],
      enabled: true,
      disabledReason: null,
      createdBy: "Configured key 1",
    });
    expect(webhook.secretPrefix).toBe(secret.slice(0, 10));

    const list = await api.get("/webhooks");
    expect(Webhooks.parse(list.body)).toEqual([webhook]);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(Webhook.parse((await api.get(`/webhooks/${webhook.id}`)).body)).toEqual(webhook);

    const test = await api.post(`/webhooks/${webhook.id}/test`);
    expect(test.status).toBe(202);
    const queued = Delivery.parse(test.body);
    expect(queued).toMatchObject({ webhookId: webhook.id, eventType: "webhook.test", status: "pending", attempts: [] });
    const [call] = await receiver.waitForCalls(1);
    expect(verified(secret, call!)).toMatchObject({ type: "webhook.test" });
    expect(call!.headers["webhook-id"]).toBe(queued.eventId);

    await expect
      .poll(
        async () =>
          Deliveries.parse((await api.get(`/webhooks/${webhook.id}/deliveries?status=succeeded`)).body).length,
      )
      .toBe(1);
    const resent = await api.post(`/webhooks/${webhook.id}/deliveries/${queued.id}/resend`);
    expect(resent.status).toBe(202);
    const [, again] = await receiver.waitForCalls(2);
    expect(again!.headers["webhook-id"]).toBe(queued.eventId);

    // A pet: a second delivery; pages of one, newest first, with a Link to the next.
    expect(
      (await request(t.app).post("/v1/pets").set("Authorization", bearer()).send({ name: "Rex", categoryId: 1 }))
        .status,
    ).toBe(201);
    await receiver.waitForCalls(3);
    const page = await api.get(`/webhooks/${webhook.id}/deliveries?limit=1`);
    expect(Deliveries.parse(page.body)[0]).toMatchObject({ eventType: "pet.created" });
    const next = /^<([^>]+)>; rel="next"$/.exec(page.headers["link"] ?? "")?.[1];
    expect(next).toMatch(/^\/admin\/v1\/webhooks\/\d+\/deliveries\?limit=1&after=\d+$/);
    expect(Deliveries.parse((await request(t.app).get(next!).set("Authorization", bearer())).body)[0]).toMatchObject({
      eventType: "webhook.test",
    });

    const rotated = await api.post(`/webhooks/${webhook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret = WebhookWithSecret.parse(rotated.body).secret;
    expect(newSecret).not.toBe(secret);
    await api.post(`/webhooks/${webhook.id}/test`);
    const [, , , afterRotation] = await receiver.waitForCalls(4);
    expect(verified(newSecret, afterRotation!).type).toBe("webhook.test");
    expect(verified(secret, afterRotation!).type).toBe("webhook.test");

    const disabled = await api.patch(`/webhooks/${webhook.id}`, { enabled: false, description: "Old stock system" });
    expect(Webhook.parse(disabled.body)).toMatchObject({ enabled: false, description: "Old stock system" });
    expect((await api.delete(`/webhooks/${webhook.id}`)).status).toBe(204);
    expect((await api.get(`/webhooks/${webhook.id}`)).status).toBe(404);
    expect((await api.get(`/webhooks/${webhook.id}/deliveries`)).status).toBe(404);
    expect((await api.delete(`/webhooks/${webhook.id}`)).status).toBe(404);

    const events = AuditEvents.parse((await api.get("/audit-events?targetType=webhook")).body);
    expect(events.map((event) => event.action)).toEqual([
      "webhook.deleted",
      "webhook.updated",
      "webhook.secret_rotated",
      "webhook.created",
    ]);
    expect(events[0]!.target).toEqual({ type: "webhook", id: webhook.id, label: "Old stock system" });
    // The secret is in no log line.
    expect(t.logs.join("\n")).not.toContain(secret.slice(6));
    expect(t.logs.join("\n")).not.toContain(newSecret.slice(6));
  });
});

describe("webhook registration refusals (SSRF)", () => {
  it("refuses http://, loopback, private and metadata hosts, and a host that does not resolve: 400 naming url, nothing stored", async () => {
    const t = await start("sqlite", {}, false);
    const api = admin(t);
    const cases: Array<[string, RegExp]> = [
      ["http://93.184.216.34/hook", /must start with https:\/\//],
      ["https://127.0.0.1/hook", /127\.0\.0\.1.*may not reach/],
      ["https://localhost:8443/hook", /may not reach/],
      ["https://10.0.0.5/hook", /may not reach/],
      ["https://169.254.169.254/latest/meta-data/", /metadata/],
      ["https://[::1]/hook", /may not reach/],
      ["https://[::127.0.0.1]/hook", /carrying 127\.0\.0\.1.*may not reach/],
      ["https://[::ffff:0:7f00:1]/hook", /carrying 127\.0\.0\.1.*may not reach/],
      ["https://[64:ff9b:1::808:808]/hook", /rfc6052.*may not reach/],
      ["https://[2002:7f00:1::1]/hook", /6to4, carrying 127\.0\.0\.1.*may not reach/],
      ["https://[fec0::1]/hook", /deprecatedSiteLocal.*may not reach/],
      ["https://[100::1]/hook", /discard.*may not reach/],
      ["https://[2001:db8::1]/hook", /reserved.*may not reach/],
      ["https://no-such-host.invalid/hook", /does not resolve/],
      ["ftp://example.com/hook", /must start with https:\/\//],
    ];
    for (const [url, message] of cases) {
      const response = await api.post("/webhooks", { url });
      expect(response.status, url).toBe(400);
      expect(response.body.issues[0].field, url).toBe("body.url");
      expect(response.body.issues[0].message, url).toMatch(message);
    }
    expect(Webhooks.parse((await api.get("/webhooks")).body)).toEqual([]);
    // A change of URL is checked the same way.
    const [endpoint] = [
      await t.database.webhooks.createEndpoint({
        url: "https://example.com/hook",
        description: null,
        eventTypes: [],
        secret: "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        createdBy: "t",
      }),
    ];
    const changed = await api.patch(`/webhooks/${endpoint!.id}`, { url: "https://127.0.0.1/hook" });
    expect(changed.status).toBe(400);
    expect(changed.body.issues[0].field).toBe("body.url");
  });

  it("needs the admin scope", async () => {
    const t = await start("sqlite", {}, false);
    const key = await admin(t).post("/keys", { name: "writer", scope: "write" });
    const response = await request(t.app).get("/admin/v1/webhooks").set("Authorization", `Bearer ${key.body.secret}`);
    expect(response.status).toBe(403);
  });
});
