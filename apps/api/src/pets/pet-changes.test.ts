import { DeletedPets, Pet, PetChanges, WebhookWithSecret } from "@petstore/contract";
import { Webhook as Verifier } from "standardwebhooks";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { purgeExpired } from "../maintenance/retention.js";
import { createLogger } from "../ops/logger.js";
import { expectError } from "../test/expect-error.js";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import { receiversClosedAfterEach, type ReceivedCall } from "../test/webhook-receiver.js";
import { createWebhookSender, type WebhookSender } from "../webhooks/sender.js";

const DAY = 86_400_000;
const startReceiver = receiversClosedAfterEach();
const running: Array<{ t: TestApp; sender?: WebhookSender }> = [];
afterEach(async () => {
  for (const { t, sender } of running.splice(0)) {
    await sender?.stop();
    await t.close();
  }
});

async function start(provider: (typeof TEST_PROVIDERS)[number], env: Record<string, string> = {}) {
  const t = await createTestApp(env, provider);
  running.push({ t });
  return t;
}

/** Requests as one caller (the configured key: scope admin, unless a key of another scope is given). */
function as(t: TestApp, authorization = bearer()) {
  const api = () => request(t.app);
  return {
    create: (body: object) => api().post("/v1/pets").set("Authorization", authorization).send(body),
    get: (id: number) => api().get(`/v1/pets/${id}`).set("Authorization", authorization),
    list: (query = "") => api().get(`/v1/pets${query}`).set("Authorization", authorization),
    patch: (id: number | string, body: unknown, headers: Record<string, string> = {}) =>
      api()
        .patch(`/v1/pets/${id}`)
        .set("Authorization", authorization)
        .set(headers)
        .send(body as object),
    delete: (id: number, headers: Record<string, string> = {}) =>
      api().delete(`/v1/pets/${id}`).set("Authorization", authorization).set(headers),
    restore: (id: number, headers: Record<string, string> = {}) =>
      api().post(`/v1/deleted-pets/${id}/restore`).set("Authorization", authorization).set(headers),
    deleted: (query = "") => api().get(`/v1/deleted-pets${query}`).set("Authorization", authorization),
    history: (id: number, query = "") =>
      api().get(`/v1/pets/${id}/history${query}`).set("Authorization", authorization),
  };
}

async function keyOfScope(t: TestApp, scope: "read" | "write" | "admin", name = `A ${scope} key`) {
  const issued = await request(t.app)
    .post("/admin/v1/keys")
    .set("Authorization", bearer())
    .send({ name, scope })
    .expect(201);
  return `Bearer ${issued.body.secret as string}`;
}

const sell = (from: string | null) => [
  { op: "test", path: "/status", value: from },
  { op: "replace", path: "/status", value: "sold" },
];

describe.each(TEST_PROVIDERS)("pets that change on %s", (provider) => {
  describe("updatePet (PATCH /v1/pets/{petId})", () => {
    it("applies a patch that tests what its sender saw; the spec's operations show the change", async () => {
      const t = await start(provider);
      const api = as(t);
      const rex = Pet.parse((await api.create({ name: "Rex", categoryId: 1, status: "available" }).expect(201)).body);
      const sold = await api.patch(rex.id, sell("available"));
      expect(sold.status).toBe(200);
      expect(sold.body).toEqual({ ...rex, status: "sold" });
      expect((await api.get(rex.id)).body).toEqual({ ...rex, status: "sold" });
      expect((await api.list("?status=sold")).body).toEqual([{ ...rex, status: "sold" }]);
      expect((await api.list("?status=available")).body).toEqual([]);

      const renamed = await api.patch(
        rex.id,
        [
          { op: "test", path: "/name", value: "  Rex " },
          { op: "replace", path: "/name", value: "  Rex II  " },
          { op: "add", path: "/categoryId", value: 7 },
        ],
        { "Content-Type": "application/json-patch+json" },
      );
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ id: rex.id, name: "Rex II", categoryId: 7, status: "sold" });
      // The name search reads the new name's key.
      expect((await api.list("?name=rex%20ii")).body).toEqual([renamed.body]);
    });

    it("a failed test is 409 naming the field, the value stored and the value tested; nothing changes", async () => {
      const t = await start(provider);
      const api = as(t);
      const rex = Pet.parse((await api.create({ name: "Rex", categoryId: 1, status: "sold" }).expect(201)).body);
      const refused = await api.patch(rex.id, [...sell("available"), { op: "replace", path: "/name", value: "Other" }]);
      expect(expectError(refused, 409, "CONFLICT").message).toMatch(/^status is "sold", not "available"/);
      const conflict = await api.patch(rex.id, [
        { op: "replace", path: "/name", value: "Max" },
        { op: "test", path: "/categoryId", value: 2 },
      ]);
      expect(expectError(conflict, 409, "CONFLICT").message).toMatch(/^categoryId is 1, not 2/);
      expect((await api.get(rex.id)).body).toEqual(rex);
      expect(PetChanges.parse((await api.history(rex.id)).body).map((entry) => entry.action)).toEqual(["pet.created"]);
    });

    it("JSON null stands for no status: tested, set and removed", async () => {
      const t = await start(provider);
      const api = as(t);
      const tom = Pet.parse((await api.create({ name: "Tom", categoryId: 1 }).expect(201)).body);
      expect(
        (
          await api.patch(tom.id, [
            { op: "test", path: "/status", value: null },
            { op: "add", path: "/status", value: "pending" },
          ])
        ).body,
      ).toEqual({ ...tom, status: "pending" });
      expect((await api.patch(tom.id, [{ op: "replace", path: "/status", value: null }])).body).toEqual(tom);
      expect((await api.patch(tom.id, [{ op: "remove", path: "/status" }])).status).toBe(200);
      await api.patch(tom.id, [{ op: "add", path: "/status", value: "available" }]).expect(200);
      const removed = await api.patch(tom.id, [{ op: "remove", path: "/status" }]);
      expect(removed.body).toEqual(tom);
      expect("status" in removed.body).toBe(false);
    });

    it("a patch that changes nothing answers the pet and writes no history", async () => {
      const t = await start(provider);
      const api = as(t);
      const rex = Pet.parse((await api.create({ name: "Rex", categoryId: 1 }).expect(201)).body);
      expect((await api.patch(rex.id, [{ op: "replace", path: "/name", value: " Rex " }])).body).toEqual(rex);
      expect(PetChanges.parse((await api.history(rex.id)).body)).toHaveLength(1);
    });

    it.each([
      [[{ op: "move", path: "/name", from: "/status" }], "body[0].op"],
      [
        [
          { op: "test", path: "/status", value: "sold" },
          { op: "replace", path: "/id", value: 3 },
        ],
        "body[1].path",
      ],
      [[{ op: "remove", path: "/name" }], "body[0].path"],
      [[{ op: "replace", path: "/name" }], "body[0].value"],
      [[], "body"],
      [Array.from({ length: 11 }, () => ({ op: "test", path: "/name", value: "Rex" })), "body"],
      [{ op: "replace", path: "/name", value: "Max" }, "body"],
      [[{ op: "replace", path: "/name", value: "   " }], "body[0].value"],
      [[{ op: "replace", path: "/categoryId", value: 0 }], "body[0].value"],
      [[{ op: "replace", path: "/categoryId", value: "7" }], "body[0].value"],
      [[{ op: "replace", path: "/status", value: "lost" }], "body[0].value"],
      [[{ op: "replace", path: "/name", value: "a\u202eb" }], "body[0].value"],
    ])("400 naming the operation at fault: %j", async (patch, field) => {
      const t = await start(provider);
      const api = as(t);
      const rex = Pet.parse((await api.create({ name: "Rex", categoryId: 1 }).expect(201)).body);
      const refused = await api.patch(rex.id, patch);
      const error = expectError(refused, 400, "VALIDATION_ERROR");
      expect(error.issues?.map((issue) => issue.field)).toContain(field);
      expect((await api.get(rex.id)).body).toEqual(rex);
    });

    it("415 for a body that is not JSON; 404 for no such pet; 400 for a malformed id; 401 without a key", async () => {
      const t = await start(provider);
      const api = as(t);
      const rex = Pet.parse((await api.create({ name: "Rex", categoryId: 1 }).expect(201)).body);
      const text = await request(t.app)
        .patch(`/v1/pets/${rex.id}`)
        .set("Authorization", bearer())
        .set("Content-Type", "text/plain")
        .send("[]");
      expect(expectError(text, 415, "UNSUPPORTED_MEDIA_TYPE").message).toBe(
        "The request body must be JSON, sent with Content-Type: application/json or application/json-patch+json.",
      );
      expectError(await api.patch(rex.id + 1000, sell(null)), 404, "NOT_FOUND");
      expectError(await api.patch("7.0", sell(null)), 400, "VALIDATION_ERROR");
      expectError(await request(t.app).patch(`/v1/pets/${rex.id}`).send(sell(null)), 401, "UNAUTHORIZED");
    });

    it("the lifecycle: a write key sells but cannot return a sold pet (403, scope admin); an admin can", async () => {
      const t = await start(provider);
      const writer = as(t, await keyOfScope(t, "write"));
      const reader = as(t, await keyOfScope(t, "read"));
      const rex = Pet.parse((await writer.create({ name: "Rex", categoryId: 1, status: "pending" }).expect(201)).body);
      await writer.patch(rex.id, [{ op: "replace", path: "/status", value: "available" }]).expect(200);
      await writer.patch(rex.id, [{ op: "replace", path: "/status", value: null }]).expect(200);
      await writer.patch(rex.id, sell(null)).expect(200);
      const back = await writer.patch(rex.id, [{ op: "replace", path: "/status", value: "available" }]);
      expect(expectError(back, 403, "FORBIDDEN").message).toMatch(/^Only an admin can return a sold pet/);
      expect(back.headers["www-authenticate"]).toContain('scope="admin"');
      // Still sold: a correction of its name is not a return.
      await writer.patch(rex.id, [{ op: "replace", path: "/name", value: "Rex II" }]).expect(200);
      expectError(await reader.patch(rex.id, [{ op: "replace", path: "/name", value: "Max" }]), 403, "FORBIDDEN");
      expect((await as(t).patch(rex.id, [{ op: "replace", path: "/status", value: "available" }])).body).toMatchObject({
        status: "available",
      });
    });
  });

  it("two replicas racing to sell one pet: exactly one test passes, the others are 409 and change nothing", async () => {
    const one = await start(provider);
    // A second API process's app on the same database: its own connection (pool), as another replica.
    const two = await start(provider, { DATABASE_URL: one.config.databaseUrl });
    const rex = Pet.parse((await as(one).create({ name: "Rex", categoryId: 1, status: "available" }).expect(201)).body);
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        as(i % 2 === 0 ? one : two).patch(rex.id, [
          ...sell("available"),
          { op: "replace", path: "/name", value: `Buyer ${i}` },
        ]),
      ),
    );
    const won = answers.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    for (const answer of answers)
      if (answer.status !== 200)
        expect(expectError(answer, 409, "CONFLICT").message).toMatch(/^status is "sold", not "available"/);
    expect((await as(two).get(rex.id)).body).toEqual(won[0]!.body);
    expect(PetChanges.parse((await as(one).history(rex.id)).body).map((entry) => entry.action)).toEqual([
      "pet.updated",
      "pet.created",
    ]);
  });

  describe("deletePet, listDeletedPets, restorePet", () => {
    it("a deleted pet leaves every listing at once, is listed as deleted, and comes back with its id", async () => {
      const t = await start(provider);
      const api = as(t, await keyOfScope(t, "write", "Ana"));
      const [rex, tom] = [
        Pet.parse((await api.create({ name: "Rex", categoryId: 1, status: "available" }).expect(201)).body),
        Pet.parse((await api.create({ name: "Tom", categoryId: 2 }).expect(201)).body),
      ];
      const before = Date.now();
      const deleted = await api.delete(rex!.id);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe("");
      expectError(await api.get(rex!.id), 404, "NOT_FOUND");
      expect((await api.list()).body).toEqual([tom]);
      expect((await api.list("?status=available")).body).toEqual([]);
      expect((await api.list("?name=rex")).body).toEqual([]);
      expectError(await api.delete(rex!.id), 404, "NOT_FOUND");
      expectError(await api.patch(rex!.id, sell("available")), 404, "NOT_FOUND");

      const [entry] = DeletedPets.parse((await api.deleted()).body);
      expect(entry).toMatchObject({ pet: rex, deletedBy: "Ana" });
      expect(Date.parse(entry!.deletedAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(entry!.purgeAt) - Date.parse(entry!.deletedAt)).toBe(30 * DAY);
      // A read key sees what was deleted, not by whom.
      expect(DeletedPets.parse((await as(t, await keyOfScope(t, "read")).deleted()).body)[0]?.deletedBy).toBeNull();

      // restorePet reads no body: a form's empty one (curl -d '') is not refused.
      const restored = await api.restore(rex!.id).set("Content-Type", "application/x-www-form-urlencoded").send("");
      expect(restored.status).toBe(200);
      expect(restored.body).toEqual(rex);
      expect((await api.get(rex!.id)).body).toEqual(rex);
      expect((await api.list()).body).toEqual([rex, tom]);
      expect((await api.deleted()).body).toEqual([]);
      expectError(await api.restore(rex!.id), 404, "NOT_FOUND");
      expectError(await api.restore(tom!.id), 404, "NOT_FOUND");
    });

    it("never gives a deleted pet's id again", async () => {
      const t = await start(provider);
      const api = as(t);
      const last = Pet.parse((await api.create({ name: "Last", categoryId: 1 }).expect(201)).body);
      await api.delete(last.id).expect(204);
      const next = Pet.parse((await api.create({ name: "Next", categoryId: 1 }).expect(201)).body);
      expect(next.id).toBeGreaterThan(last.id);
      await api.restore(last.id).expect(200);
      expect((await api.list()).body).toEqual([last, next]);
    });

    it("lists deleted pets latest first, in pages with an opaque cursor; a forged cursor is 400", async () => {
      const t = await start(provider);
      const api = as(t);
      const pets: Pet[] = [];
      for (const name of ["A", "B", "C"])
        pets.push(Pet.parse((await api.create({ name, categoryId: 1 }).expect(201)).body));
      for (const pet of pets) await api.delete(pet.id).expect(204);
      const first = await api.deleted("?limit=2");
      expect(DeletedPets.parse(first.body).map((entry) => entry.pet.name)).toEqual(["C", "B"]);
      const next = /^<([^>]+)>; rel="next"$/.exec(first.headers["link"] ?? "")?.[1];
      expect(next).toMatch(/^\/v1\/deleted-pets\?limit=2&after=[A-Za-z0-9_-]+$/);
      const second = await request(t.app).get(next!).set("Authorization", bearer());
      expect(DeletedPets.parse(second.body).map((entry) => entry.pet.name)).toEqual(["A"]);
      expect(second.headers["link"]).toBeUndefined();
      expectError(await api.deleted("?after=bm90LWEtY3Vyc29y"), 400, "VALIDATION_ERROR");
      expectError(await api.deleted("?limit=0"), 400, "VALIDATION_ERROR");
    });

    it("a read key may list deleted pets but not delete or restore", async () => {
      const t = await start(provider);
      const reader = as(t, await keyOfScope(t, "read"));
      const rex = Pet.parse((await as(t).create({ name: "Rex", categoryId: 1 }).expect(201)).body);
      expectError(await reader.delete(rex.id), 403, "FORBIDDEN");
      await as(t).delete(rex.id).expect(204);
      expectError(await reader.restore(rex.id), 403, "FORBIDDEN");
      expect((await reader.deleted()).status).toBe(200);
    });

    it("the purge takes a pet deleted longer ago than DELETED_PET_DAYS, once, as Retention; its history stays", async () => {
      const t = await start(provider);
      const api = as(t);
      const rex = Pet.parse((await api.create({ name: "Rex", categoryId: 1 }).expect(201)).body);
      const tom = Pet.parse((await api.create({ name: "Tom", categoryId: 1 }).expect(201)).body);
      await api.delete(rex.id).expect(204);
      await api.delete(tom.id).expect(204);
      const settings = {
        activityMs: 400 * DAY,
        deliveryMs: 30 * DAY,
        eventMs: 30 * DAY,
        idempotencyMs: DAY,
        deletedPetMs: 30 * DAY,
      };
      // Thirty days on for the purge's clock: both are due; a day less, none.
      expect(
        (await purgeExpired(t.database.sql, settings, { now: () => new Date(Date.now() + 29 * DAY) })).deletedPets,
      ).toBe(0);
      expect(
        (await purgeExpired(t.database.sql, settings, { now: () => new Date(Date.now() + 31 * DAY) })).deletedPets,
      ).toBe(2);
      expect(
        (await purgeExpired(t.database.sql, settings, { now: () => new Date(Date.now() + 31 * DAY) })).deletedPets,
      ).toBe(0);
      expect((await api.deleted()).body).toEqual([]);
      expectError(await api.restore(rex.id), 404, "NOT_FOUND");
      expect(PetChanges.parse((await api.history(rex.id)).body).map((entry) => entry.action)).toEqual([
        "pet.deleted",
        "pet.created",
      ]);
      const purged = await request(t.app)
        .get("/admin/v1/audit-events?action=pet.purged")
        .set("Authorization", bearer());
      expect(purged.body).toEqual([
        expect.objectContaining({
          action: "pet.purged",
          actor: { keyId: "retention", staffId: null, name: "Retention" },
          target: { type: "pet", id: tom.id, label: "Tom" },
        }),
        expect.objectContaining({ action: "pet.purged", target: { type: "pet", id: rex.id, label: "Rex" } }),
      ]);
    });
  });

  describe("listPetHistory (GET /v1/pets/{petId}/history)", () => {
    it("each change, newest first, with who and the fields it moved; names hidden below write", async () => {
      const t = await start(provider);
      const ana = as(t, await keyOfScope(t, "write", "Ana"));
      const rex = Pet.parse((await ana.create({ name: "Rex", categoryId: 1, status: "available" }).expect(201)).body);
      await ana.patch(rex.id, [...sell("available"), { op: "replace", path: "/name", value: "Rex II" }]).expect(200);
      await ana.delete(rex.id).expect(204);
      await as(t).restore(rex.id).expect(200);
      const history = PetChanges.parse((await ana.history(rex.id)).body);
      expect(history.map(({ action, by, changes }) => ({ action, by, changes }))).toEqual([
        { action: "pet.restored", by: { kind: "key", name: "Configured key 1" }, changes: [] },
        { action: "pet.deleted", by: { kind: "key", name: "Ana" }, changes: [] },
        {
          action: "pet.updated",
          by: { kind: "key", name: "Ana" },
          changes: [
            { field: "name", from: "Rex", to: "Rex II" },
            { field: "status", from: "available", to: "sold" },
          ],
        },
        {
          action: "pet.created",
          by: { kind: "key", name: "Ana" },
          changes: [
            { field: "name", from: null, to: "Rex" },
            { field: "categoryId", from: null, to: 1 },
            { field: "status", from: null, to: "available" },
          ],
        },
      ]);
      const reader = as(t, await keyOfScope(t, "read"));
      expect(PetChanges.parse((await reader.history(rex.id)).body).map((entry) => entry.by.name)).toEqual([
        null,
        null,
        null,
        null,
      ]);

      const page = await ana.history(rex.id, "?limit=3");
      expect(PetChanges.parse(page.body)).toEqual(history.slice(0, 3));
      const next = /^<([^>]+)>; rel="next"$/.exec(page.headers["link"] ?? "")?.[1];
      expect(PetChanges.parse((await request(t.app).get(next!).set("Authorization", bearer())).body)).toEqual(
        history.slice(3),
      );
    });

    it("404 for an id no pet ever had; a deleted pet's history is readable; a forged cursor is 400", async () => {
      const t = await start(provider);
      const api = as(t);
      expectError(await api.history(424242), 404, "NOT_FOUND");
      const rex = Pet.parse((await api.create({ name: "Rex", categoryId: 1 }).expect(201)).body);
      await api.delete(rex.id).expect(204);
      expect((await api.history(rex.id)).status).toBe(200);
      expectError(await api.history(rex.id, "?after=abc"), 400, "VALIDATION_ERROR");
    });
  });

  describe("retries with an Idempotency-Key", () => {
    it("a retried sale replays its first answer instead of failing its own test; another body is 422", async () => {
      const t = await start(provider);
      const api = as(t);
      const rex = Pet.parse((await api.create({ name: "Rex", categoryId: 1, status: "available" }).expect(201)).body);
      const key = { "Idempotency-Key": "sale-1" };
      const first = await api.patch(rex.id, sell("available"), key);
      expect(first.status).toBe(200);
      const retry = await api.patch(rex.id, sell("available"), key);
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers["idempotent-replayed"]).toBe("true");
      expectError(await api.patch(rex.id, sell("pending"), key), 422, "IDEMPOTENCY_KEY_REUSED");
      expectError(await api.delete(rex.id, key), 422, "IDEMPOTENCY_KEY_REUSED");
      // One sale in the history.
      expect(PetChanges.parse((await api.history(rex.id)).body).map((entry) => entry.action)).toEqual([
        "pet.updated",
        "pet.created",
      ]);
      // A refusal is not remembered: the key is free for the same request once it can pass.
      expectError(await api.patch(rex.id, sell("available"), { "Idempotency-Key": "sale-2" }), 409, "CONFLICT");
    });

    it("a retried delete replays its 204, a retried restore its pet; keys are per caller", async () => {
      const t = await start(provider);
      const api = as(t);
      const rex = Pet.parse((await api.create({ name: "Rex", categoryId: 1 }).expect(201)).body);
      await api.delete(rex.id, { "Idempotency-Key": "d" }).expect(204);
      const again = await api.delete(rex.id, { "Idempotency-Key": "d" });
      expect(again.status).toBe(204);
      expect(again.headers["idempotent-replayed"]).toBe("true");
      await api.restore(rex.id, { "Idempotency-Key": "r" }).expect(200);
      const restoredAgain = await api.restore(rex.id, { "Idempotency-Key": "r" });
      expect(restoredAgain.body).toEqual(rex);
      expect(restoredAgain.headers["idempotent-replayed"]).toBe("true");
      // Another caller's same key is its own.
      expectError(
        await as(t, await keyOfScope(t, "write")).delete(rex.id + 999, { "Idempotency-Key": "d" }),
        404,
        "NOT_FOUND",
      );
      expectError(await api.patch(rex.id, sell(null), { "Idempotency-Key": "" }), 400, "VALIDATION_ERROR");
    });
  });

  it("each change is a signed webhook: pet.updated with previousAttributes, pet.deleted, pet.restored", async () => {
    const t = await createTestApp({ WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE: "true" }, provider);
    const sender = createWebhookSender({
      repository: t.database.webhooks,
      logger: createLogger(t.config, { write: () => {} }),
      ...t.config.webhooks,
      pollMs: 50,
    });
    sender.start();
    running.push({ t, sender });
    const receiver = await startReceiver();
    const created = await request(t.app)
      .post("/admin/v1/webhooks")
      .set("Authorization", bearer())
      .send({ url: receiver.url, eventTypes: ["pet.updated", "pet.deleted", "pet.restored"] })
      .expect(201);
    const { secret } = WebhookWithSecret.parse(created.body);
    const api = as(t);
    const rex = Pet.parse((await api.create({ name: "Rex", categoryId: 1, status: "available" }).expect(201)).body);
    await api.patch(rex.id, [...sell("available"), { op: "replace", path: "/categoryId", value: 2 }]).expect(200);
    await api.patch(rex.id, [{ op: "replace", path: "/status", value: "sold" }]).expect(200);
    await api.delete(rex.id).expect(204);
    await api.restore(rex.id).expect(200);
    const calls = await receiver.waitForCalls(3);
    const events = calls.map((call: ReceivedCall) => {
      const headers = Object.fromEntries(Object.entries(call.headers).map(([name, value]) => [name, String(value)]));
      return new Verifier(secret).verify(call.body, headers) as { type: string; data: unknown };
    });
    const sold = { ...rex, categoryId: 2, status: "sold" };
    // Deliveries run concurrently and webhooks promise no order (Standard Webhooks): compare by type.
    expect(events).toHaveLength(3);
    expect(Object.fromEntries(events.map(({ type, data }) => [type, data]))).toEqual({
      "pet.updated": { pet: sold, previousAttributes: { categoryId: 1, status: "available" } },
      "pet.deleted": sold,
      "pet.restored": sold,
    });
  });
});
