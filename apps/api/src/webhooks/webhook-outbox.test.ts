import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import { newWebhookSecret } from "./signature.js";
import type { WebhookEventType } from "../activity/webhook-outbox.js";

// The outbox without a sender: what a change leaves behind, and the fan-out a sender runs off the request path.
const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});

async function app(provider: (typeof TEST_PROVIDERS)[number]) {
  const t = await createTestApp({ WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE: "true" }, provider);
  apps.push(t);
  return t;
}

const endpoint = (t: TestApp, eventTypes: WebhookEventType[], enabled = true) =>
  t.database.webhooks
    .createEndpoint({ url: "http://127.0.0.1:9/hook", description: null, eventTypes, secret: newWebhookSecret(), createdBy: "test" })
    .then(async (created) => (enabled ? created : (await t.database.webhooks.updateEndpoint(created.id, { enabled: false }))!));

async function createPets(t: TestApp, count: number) {
  for (let n = 0; n < count; n++) {
    const response = await request(t.app).post("/v1/pets").set("Authorization", bearer()).send({ name: `Pet ${n}`, categoryId: 1 });
    expect(response.status).toBe(201);
  }
}

const deliveriesOf = async (t: TestApp, webhookId: number) => t.database.webhooks.listDeliveries({ webhookId, take: 100 });

describe.each(TEST_PROVIDERS)("the webhook outbox on %s", (provider) => {
  it("a change nobody subscribes to leaves nothing in the outbox", async () => {
    const t = await app(provider);
    const keysOnly = await endpoint(t, ["key.created"]);
    const disabled = await endpoint(t, [], false);
    await createPets(t, 2);
    expect(await t.database.webhooks.oldestPendingAt()).toBeNull();
    await t.database.webhooks.fanOut(200);
    expect(await deliveriesOf(t, keysOnly.id)).toEqual([]);
    expect(await deliveriesOf(t, disabled.id)).toEqual([]);
  });

  it("a change writes one event whatever the number of endpoints; the fan-out makes a delivery per subscribed endpoint, once", async () => {
    const t = await app(provider);
    const [all, pets, keys] = [await endpoint(t, []), await endpoint(t, ["pet.created"]), await endpoint(t, ["key.created"])];
    const before = Date.now();
    await createPets(t, 3);
    // Not fanned out yet: no delivery, but the metric's oldest pending age counts the waiting events.
    expect(await deliveriesOf(t, all.id)).toEqual([]);
    const oldest = await t.database.webhooks.oldestPendingAt();
    expect(oldest?.getTime()).toBeGreaterThanOrEqual(before - 1_000);

    await t.database.webhooks.fanOut(2);
    expect(await deliveriesOf(t, all.id)).toHaveLength(2);
    await t.database.webhooks.fanOut(200);
    await t.database.webhooks.fanOut(200);
    const toAll = await deliveriesOf(t, all.id);
    const toPets = await deliveriesOf(t, pets.id);
    expect(toAll).toHaveLength(3);
    expect(await deliveriesOf(t, keys.id)).toEqual([]);
    // Newest first, one webhook-id per event, the same at every endpoint.
    expect(toPets.map((delivery) => delivery.eventId)).toEqual(toAll.map((delivery) => delivery.eventId));
    expect(new Set(toAll.map((delivery) => delivery.eventId)).size).toBe(3);
    expect(toAll.every((delivery) => delivery.status === "pending" && delivery.eventType === "pet.created")).toBe(true);
    expect(await t.database.webhooks.oldestPendingAt()).toEqual(toAll.at(-1)!.createdAt);
  });

  it("an event goes only to endpoints registered before it: not to one registered later, nor anywhere once its endpoints are gone", async () => {
    const t = await app(provider);
    const gone = await endpoint(t, []);
    await createPets(t, 1);
    await t.database.webhooks.deleteEndpoint(gone.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = await endpoint(t, []);
    expect(await t.database.webhooks.oldestPendingAt()).not.toBeNull();
    await t.database.webhooks.fanOut(200);
    expect(await deliveriesOf(t, later.id)).toEqual([]);
    // Gone from the outbox all the same.
    expect(await t.database.webhooks.oldestPendingAt()).toBeNull();
  });

  it("fan-outs run at once hand out every event exactly once", async () => {
    const t = await app(provider);
    const only = await endpoint(t, []);
    await createPets(t, 30);
    await Promise.all(Array.from({ length: 6 }, () => t.database.webhooks.fanOut(4)));
    await t.database.webhooks.fanOut(200);
    const deliveries = await deliveriesOf(t, only.id);
    expect(deliveries).toHaveLength(30);
    expect(new Set(deliveries.map((delivery) => delivery.eventId)).size).toBe(30);
  });
});
