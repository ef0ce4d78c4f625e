import Sqlite from "better-sqlite3";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import { newWebhookSecret } from "./signature.js";
import type { WebhookEventType } from "../activity/webhook-outbox.js";
import { sqliteFilePath } from "../base/database-url.js";
import { MIGRATIONS_FOLDER } from "../data/migrate.js";

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

// On SQLite the outbox is the audit row's webhookEventId and webhookData, fanned out behind a cursor (decision 023).
describe("the webhook outbox on SQLite: events in the audit rows, fanned out behind a cursor", () => {
  const sideConnection = (t: TestApp) => new Sqlite(sqliteFilePath(t.config.databaseUrl));

  it("passes over the changes that carry no event, and fans out only those that do, in batches", async () => {
    const t = await app("sqlite");
    await createPets(t, 3);
    const only = await endpoint(t, ["pet.created"]);
    await createPets(t, 2);
    const side = sideConnection(t);
    try {
      const rows = side.prepare(`SELECT "webhookEventId" IS NOT NULL AS "carries" FROM "AuditEvent" WHERE "action" = 'pet.created' ORDER BY "id"`).all();
      expect(rows).toEqual([0, 0, 0, 1, 1].map((carries) => ({ carries })));
      await t.database.webhooks.fanOut(1);
      expect(await deliveriesOf(t, only.id)).toHaveLength(1);
      await t.database.webhooks.fanOut(200);
      expect(await deliveriesOf(t, only.id)).toHaveLength(2);
      const { last, cursor } = side
        .prepare(`SELECT (SELECT max("id") FROM "AuditEvent") AS "last", "lastAuditEventId" AS "cursor" FROM "WebhookFanOut"`)
        .get() as { last: number; cursor: number };
      expect(cursor).toBe(last);
      expect(await t.database.webhooks.oldestPendingAt()).toEqual((await deliveriesOf(t, only.id)).at(-1)!.createdAt);
    } finally {
      side.close();
    }
  });

  it("a sender with nothing new since its last fan-out takes no write lock", async () => {
    const t = await app("sqlite");
    await endpoint(t, []);
    await createPets(t, 1);
    await t.database.webhooks.fanOut(200);
    const side = sideConnection(t);
    try {
      // Another process holds the write lock: a fan-out that wanted it would wait out the busy timeout, then fail.
      side.exec("BEGIN IMMEDIATE");
      const started = Date.now();
      await t.database.webhooks.fanOut(200);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      side.exec("ROLLBACK");
      side.close();
    }
  });

  it("the migration to this outbox fans out the events still waiting in the old one", () => {
    const work = mkdtempSync(path.join(tmpdir(), "petstore-outbox-migration-"));
    const db = new Sqlite(path.join(work, "old.db"));
    try {
      const migrations = readdirSync(MIGRATIONS_FOLDER.sqlite).filter((name) => /^\d{4}_/.test(name)).sort();
      const apply = (name: string) => db.exec(readFileSync(path.join(MIGRATIONS_FOLDER.sqlite, name, "migration.sql"), "utf8"));
      const target = migrations.findIndex((name) => name.endsWith("_webhook_outbox_in_audit"));
      expect(target).toBeGreaterThan(0);
      migrations.slice(0, target).forEach(apply);
      const at = (iso: string) => iso.replace("Z", "+00:00");
      db.prepare(`INSERT INTO "WebhookEndpoint" ("url", "eventTypes", "secret", "createdAt", "createdBy") VALUES (?, ?, 'whsec_x', ?, 'test')`).run(
        "http://127.0.0.1:9/all", "", at("2026-01-01T00:00:00.000Z"));
      db.prepare(`INSERT INTO "WebhookEndpoint" ("url", "eventTypes", "secret", "createdAt", "createdBy") VALUES (?, ?, 'whsec_x', ?, 'test')`).run(
        "http://127.0.0.1:9/keys", "key.created", at("2026-01-01T00:00:00.000Z"));
      db.prepare(`INSERT INTO "WebhookEvent" ("eventId", "eventType", "data", "createdAt") VALUES (?, 'pet.created', '{"id":1}', ?)`).run(
        "msg_waiting", at("2026-01-02T00:00:00.000Z"));
      db.prepare(`INSERT INTO "AuditEvent" ("at", "action", "actorKeyId", "actorName", "targetType", "targetId", "targetLabel") VALUES (?, 'pet.created', '1', 'k', 'pet', 1, 'Rex')`).run(
        at("2026-01-02T00:00:00.000Z"));

      apply(migrations[target]!);

      const deliveries = db.prepare(`SELECT "webhookId", "eventId", "status" FROM "WebhookDelivery"`).all();
      expect(deliveries).toEqual([{ webhookId: 1, eventId: "msg_waiting", status: "pending" }]);
      expect(db.prepare(`SELECT count(*) AS "n" FROM "WebhookEvent"`).get()).toEqual({ n: 0 });
      // The audit rows written before carry no event: the cursor starts after them.
      expect(db.prepare(`SELECT "lastAuditEventId" AS "cursor" FROM "WebhookFanOut"`).get()).toEqual({ cursor: 1 });
    } finally {
      db.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
