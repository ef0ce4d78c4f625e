import Sqlite from "better-sqlite3";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { bearer, createTestApp, TEST_PROVIDERS, untilEventsVisible, type TestApp } from "../test/test-app.js";
import { newWebhookSecret } from "./signature.js";
import type { WebhookEventType } from "../activity/event-types.js";
import { sqliteFilePath } from "../base/database-url.js";
import { MIGRATIONS_FOLDER } from "../data/migrate.js";
import { rows, sql } from "../data/sql-work.js";

// The event log without a sender: what a change leaves behind, and the fan-out a sender runs off the request path.
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
    .createEndpoint({
      url: "http://127.0.0.1:9/hook",
      description: null,
      eventTypes,
      secret: newWebhookSecret(),
      createdBy: "test",
    })
    .then(async (created) =>
      enabled ? created : (await t.database.webhooks.updateEndpoint(created.id, { enabled: false }))!,
    );

let logged = new WeakMap<TestApp, number>();
afterEach(() => {
  logged = new WeakMap();
});

/** Creates pets, then waits until the log shows their events (on PostgreSQL, once no older transaction is open). */
async function createPets(t: TestApp, count: number) {
  for (let n = 0; n < count; n++) {
    const response = await request(t.app)
      .post("/v1/pets")
      .set("Authorization", bearer())
      .send({ name: `Pet ${n}`, categoryId: 1 });
    expect(response.status).toBe(201);
  }
  logged.set(t, (logged.get(t) ?? 0) + count);
  await untilEventsVisible(t.database, logged.get(t)!);
}

const deliveriesOf = async (t: TestApp, webhookId: number) =>
  t.database.webhooks.listDeliveries({ webhookId, take: 100 });

describe.each(TEST_PROVIDERS)("the webhook fan-out from the event log on %s", (provider) => {
  it("a change nobody subscribes to is logged all the same, and the fan-out passes it by", async () => {
    const t = await app(provider);
    const keysOnly = await endpoint(t, ["key.created"]);
    const disabled = await endpoint(t, [], false);
    await createPets(t, 2);
    expect(
      await t.database.sql.read(() => rows<{ type: string }>(sql`SELECT "type" FROM "Event" ORDER BY "id"`)),
    ).toEqual([{ type: "pet.created" }, { type: "pet.created" }]);
    expect(await t.database.webhooks.oldestPendingAt()).not.toBeNull();
    await t.database.webhooks.fanOut(200);
    expect(await t.database.webhooks.oldestPendingAt()).toBeNull();
    expect(await deliveriesOf(t, keysOnly.id)).toEqual([]);
    expect(await deliveriesOf(t, disabled.id)).toEqual([]);
  });

  it("a change writes one event whatever the number of endpoints; the fan-out makes a delivery per subscribed endpoint, once", async () => {
    const t = await app(provider);
    const [all, pets, keys] = [
      await endpoint(t, []),
      await endpoint(t, ["pet.created"]),
      await endpoint(t, ["key.created"]),
    ];
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
    // Passed by all the same.
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

// On SQLite the log's ids are in commit order: the fan-out reads it behind a cursor ("EventLog"."fanOutId").
describe("the webhook fan-out on SQLite: the event log read behind a cursor", () => {
  const sideConnection = (t: TestApp) => new Sqlite(sqliteFilePath(t.config.databaseUrl));

  it("logs every event, subscribed or not, and fans out the subscribed ones in batches", async () => {
    const t = await app("sqlite");
    await createPets(t, 3);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const only = await endpoint(t, ["pet.created"]);
    await createPets(t, 2);
    const side = sideConnection(t);
    try {
      expect(side.prepare(`SELECT count(*) AS "n" FROM "Event"`).get()).toEqual({ n: 5 });
      // The first four events: three from before the endpoint existed, one after.
      await t.database.webhooks.fanOut(4);
      expect(await deliveriesOf(t, only.id)).toHaveLength(1);
      await t.database.webhooks.fanOut(200);
      expect(await deliveriesOf(t, only.id)).toHaveLength(2);
      const { last, cursor } = side
        .prepare(`SELECT (SELECT max("id") FROM "Event") AS "last", "fanOutId" AS "cursor" FROM "EventLog"`)
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

  it("the migration to the event log moves the events still waiting in the audit rows into it", () => {
    const work = mkdtempSync(path.join(tmpdir(), "petstore-event-log-migration-"));
    const db = new Sqlite(path.join(work, "old.db"));
    try {
      const migrations = readdirSync(MIGRATIONS_FOLDER.sqlite)
        .filter((name) => /^\d{4}_/.test(name))
        .sort();
      const apply = (name: string) =>
        db.exec(readFileSync(path.join(MIGRATIONS_FOLDER.sqlite, name, "migration.sql"), "utf8"));
      const target = migrations.findIndex((name) => name.endsWith("_event_log"));
      expect(target).toBeGreaterThan(0);
      migrations.slice(0, target).forEach(apply);
      const audit =
        db.prepare(`INSERT INTO "AuditEvent" ("at", "action", "actorKeyId", "actorName", "targetType", "targetId", "targetLabel", "webhookEventId", "webhookData")
        VALUES ('2026-01-02 00:00:00.000+00:00', 'pet.created', '1', 'k', 'pet', ?, 'Rex', ?, ?)`);
      audit.run(1, "msg_sent", '{"id":1}');
      audit.run(2, null, null);
      audit.run(3, "msg_waiting", '{"id":3}');
      db.prepare(`UPDATE "WebhookFanOut" SET "lastAuditEventId" = 1`).run();

      apply(migrations[target]!);

      expect(db.prepare(`SELECT "eventId", "type", "data" FROM "Event"`).all()).toEqual([
        { eventId: "msg_waiting", type: "pet.created", data: '{"id":3}' },
      ]);
      expect(db.prepare(`SELECT "fanOutId", "purgedId" FROM "EventLog"`).get()).toEqual({ fanOutId: 0, purgedId: 0 });
    } finally {
      db.close();
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("the migration to the outbox in the audit rows fans out the events still waiting in the old one", () => {
    const work = mkdtempSync(path.join(tmpdir(), "petstore-outbox-migration-"));
    const db = new Sqlite(path.join(work, "old.db"));
    try {
      const migrations = readdirSync(MIGRATIONS_FOLDER.sqlite)
        .filter((name) => /^\d{4}_/.test(name))
        .sort();
      const apply = (name: string) =>
        db.exec(readFileSync(path.join(MIGRATIONS_FOLDER.sqlite, name, "migration.sql"), "utf8"));
      const target = migrations.findIndex((name) => name.endsWith("_webhook_outbox_in_audit"));
      expect(target).toBeGreaterThan(0);
      migrations.slice(0, target).forEach(apply);
      const at = (iso: string) => iso.replace("Z", "+00:00");
      db.prepare(
        `INSERT INTO "WebhookEndpoint" ("url", "eventTypes", "secret", "createdAt", "createdBy") VALUES (?, ?, 'whsec_x', ?, 'test')`,
      ).run("http://127.0.0.1:9/all", "", at("2026-01-01T00:00:00.000Z"));
      db.prepare(
        `INSERT INTO "WebhookEndpoint" ("url", "eventTypes", "secret", "createdAt", "createdBy") VALUES (?, ?, 'whsec_x', ?, 'test')`,
      ).run("http://127.0.0.1:9/keys", "key.created", at("2026-01-01T00:00:00.000Z"));
      db.prepare(
        `INSERT INTO "WebhookEvent" ("eventId", "eventType", "data", "createdAt") VALUES (?, 'pet.created', '{"id":1}', ?)`,
      ).run("msg_waiting", at("2026-01-02T00:00:00.000Z"));
      db.prepare(
        `INSERT INTO "AuditEvent" ("at", "action", "actorKeyId", "actorName", "targetType", "targetId", "targetLabel") VALUES (?, 'pet.created', '1', 'k', 'pet', 1, 'Rex')`,
      ).run(at("2026-01-02T00:00:00.000Z"));

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
