import { AuditEvents, Categories, Category, Inventory, Pet, Pets } from "@petstore/contract";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { execute, firstRow, joinSql, sql } from "../data/sql-work.js";
import { startCountFolding } from "../maintenance/count-folding.js";
import { purgeExpired } from "../maintenance/retention.js";
import { foldPetCounts } from "../pets/pet-counts.js";
import { expectError } from "../test/expect-error.js";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";

const DAY = 86_400_000;
const running: TestApp[] = [];
afterEach(async () => {
  for (const t of running.splice(0)) await t.close();
});

async function start(provider: (typeof TEST_PROVIDERS)[number], env: Record<string, string> = {}) {
  const t = await createTestApp(env, provider);
  running.push(t);
  return t;
}

/** Requests as one caller (the configured key, scope admin, unless another is given). */
function as(t: TestApp, authorization = bearer()) {
  const api = () => request(t.app);
  return {
    createPet: async (body: object) =>
      Pet.parse((await api().post("/v1/pets").set("Authorization", authorization).send(body).expect(201)).body),
    list: (query = "") => api().get(`/v1/pets${query}`).set("Authorization", authorization),
    patch: (id: number, body: unknown) =>
      api()
        .patch(`/v1/pets/${id}`)
        .set("Authorization", authorization)
        .send(body as object),
    deletePet: (id: number) => api().delete(`/v1/pets/${id}`).set("Authorization", authorization),
    restore: (id: number) => api().post(`/v1/deleted-pets/${id}/restore`).set("Authorization", authorization),
    categories: () => api().get("/v1/categories").set("Authorization", authorization),
    createCategory: (body: unknown) =>
      api()
        .post("/v1/categories")
        .set("Authorization", authorization)
        .send(body as object),
    rename: (id: number | string, body: unknown) =>
      api()
        .post(`/v1/categories/${id}/rename`)
        .set("Authorization", authorization)
        .send(body as object),
    inventory: async () =>
      Inventory.parse((await api().get("/v1/store/inventory").set("Authorization", authorization).expect(200)).body),
  };
}

async function keyOfScope(t: TestApp, scope: "read" | "write" | "admin") {
  const issued = await request(t.app)
    .post("/admin/v1/keys")
    .set("Authorization", bearer())
    .send({ name: `A ${scope} key`, scope })
    .expect(201);
  return `Bearer ${issued.body.secret as string}`;
}

const counts = (available = 0, pending = 0, sold = 0, none = 0) => ({ available, pending, sold, none });

describe.each(TEST_PROVIDERS)("the store at a glance on %s", (provider) => {
  describe("categories", () => {
    it("names ids: given, or the next above every category's and pet's; lists them by name", async () => {
      const t = await start(provider);
      const api = as(t);
      expect((await api.categories()).body).toEqual([]);
      await api.createPet({ name: "Rex", categoryId: 7 });
      const dogs = await api.createCategory({ name: "  Dogs ", id: 7 });
      expect(dogs.status).toBe(201);
      expect(dogs.body).toEqual({ id: 7, name: "Dogs" });
      // The next id above category 7 and every pet's categoryId (a deleted pet's too: it may come back).
      const tom = await api.createPet({ name: "Tom", categoryId: 12 });
      await api.deletePet(tom.id).expect(204);
      expect(Category.parse((await api.createCategory({ name: "Cats" }).expect(201)).body)).toEqual({
        id: 13,
        name: "Cats",
      });
      expect(Category.parse((await api.createCategory({ name: "Émus" }).expect(201)).body).id).toBe(14);
      expect(Categories.parse((await api.categories()).body)).toEqual([
        { id: 13, name: "Cats" },
        { id: 7, name: "Dogs" },
        { id: 14, name: "Émus" },
      ]);
      // A read key lists them; naming needs admin.
      const reader = as(t, await keyOfScope(t, "read"));
      expect((await reader.categories()).body).toHaveLength(3);
      expectError(await as(t, await keyOfScope(t, "write")).createCategory({ name: "Fish" }), 403, "FORBIDDEN");
      expectError(await reader.rename(7, { name: "Hounds" }), 403, "FORBIDDEN");
    });

    it("a taken name (ignoring case and accents) or id is 409; so is the 1,001st; bad input is 400", async () => {
      const t = await start(provider);
      const api = as(t);
      await api.createCategory({ name: "Dogs", id: 1 }).expect(201);
      expect(expectError(await api.createCategory({ name: "dögs" }), 409, "CONFLICT").message).toBe(
        "A category is named Dogs already.",
      );
      expect(expectError(await api.createCategory({ name: "Hounds", id: 1 }), 409, "CONFLICT").message).toMatch(
        /^Category 1 is named Dogs already/,
      );
      expectError(await api.createCategory({ name: "" }), 400, "VALIDATION_ERROR");
      expectError(await api.createCategory({ name: "Cats", id: 0 }), 400, "VALIDATION_ERROR");
      expectError(await api.createCategory({ name: "a\u202eb" }), 400, "VALIDATION_ERROR");
      expectError(await api.createCategory({ id: 3 }), 400, "VALIDATION_ERROR");
      // 999 more make 1,000: the store's most.
      // One statement: 999 round trips in one PostgreSQL transaction outlasted its 5 s limit on a busy CI host.
      const rows = Array.from(
        { length: 999 },
        (_, i) => sql`(${i + 2}, ${`C${i + 2}`}, ${`c${i + 2}`}, ${new Date()})`,
      );
      await t.database.sql.transaction(function* () {
        yield* execute(
          sql`INSERT INTO "Category" ("id", "name", "nameKey", "createdAt") VALUES ${joinSql(rows, ", ")}`,
        );
      });
      expect(Categories.parse((await api.categories()).body)).toHaveLength(1000);
      expect(expectError(await api.createCategory({ name: "One too many" }), 409, "CONFLICT").message).toMatch(
        /^The store has 1,000 categories/,
      );
    });

    it("renames: the new name shows, a taken one is 409, an unknown id 404; each change is in the activity log", async () => {
      const t = await start(provider);
      const api = as(t);
      await api.createCategory({ name: "Dogs", id: 1 }).expect(201);
      await api.createCategory({ name: "Cats", id: 2 }).expect(201);
      expect((await api.rename(1, { name: "Hounds" }).expect(200)).body).toEqual({ id: 1, name: "Hounds" });
      // The same name again: nothing changes, nothing is recorded. Its own name in other case is a rename.
      await api.rename(1, { name: "Hounds" }).expect(200);
      expect((await api.rename(1, { name: "HOUNDS" }).expect(200)).body).toEqual({ id: 1, name: "HOUNDS" });
      expect(expectError(await api.rename(1, { name: "cats" }), 409, "CONFLICT").message).toBe(
        "A category is named Cats already.",
      );
      expect(expectError(await api.rename(9, { name: "Fish" }), 404, "NOT_FOUND").message).toBe(
        "No category has id 9.",
      );
      expectError(await api.rename("abc", { name: "Fish" }), 400, "VALIDATION_ERROR");
      expectError(await api.rename(1, { name: " " }), 400, "VALIDATION_ERROR");
      expect(Categories.parse((await api.categories()).body)).toEqual([
        { id: 2, name: "Cats" },
        { id: 1, name: "HOUNDS" },
      ]);
      const events = AuditEvents.parse(
        (
          await request(t.app)
            .get("/admin/v1/audit-events?targetType=category")
            .set("Authorization", bearer())
            .expect(200)
        ).body,
      );
      // Each event names the category as it was then named.
      expect(events.map((event) => [event.action, event.target.id, event.target.label])).toEqual([
        ["category.renamed", 1, "HOUNDS"],
        ["category.renamed", 1, "Hounds"],
        ["category.created", 2, "Cats"],
        ["category.created", 1, "Dogs"],
      ]);
    });
  });

  describe("getInventory", () => {
    it("is exact after creates, changes, deletions, restores and purges, with names where there are", async () => {
      const t = await start(provider);
      const api = as(t);
      await api.createCategory({ name: "Dogs", id: 1 }).expect(201);
      await api.createCategory({ name: "Fish", id: 5 }).expect(201);
      expect(await api.inventory()).toEqual({
        total: 0,
        byStatus: counts(),
        byCategory: [
          { categoryId: 1, name: "Dogs", total: 0, byStatus: counts() },
          { categoryId: 5, name: "Fish", total: 0, byStatus: counts() },
        ],
        other: { total: 0, byStatus: counts() },
      });
      const rex = await api.createPet({ name: "Rex", categoryId: 1, status: "available" });
      const max = await api.createPet({ name: "Max", categoryId: 1 });
      const tom = await api.createPet({ name: "Tom", categoryId: 2, status: "pending" });
      await api.createPet({ name: "Kit", categoryId: 2, status: "pending" });
      await api.patch(rex.id, [{ op: "replace", path: "/status", value: "sold" }]).expect(200);
      await api
        .patch(tom.id, [
          { op: "replace", path: "/categoryId", value: 1 },
          { op: "replace", path: "/status", value: "available" },
        ])
        .expect(200);
      // A name alone moves no count.
      await api.patch(max.id, [{ op: "replace", path: "/name", value: "Maximus" }]).expect(200);
      await api.deletePet(max.id).expect(204);
      expect(await api.inventory()).toEqual({
        total: 3,
        byStatus: counts(1, 1, 1, 0),
        byCategory: [
          { categoryId: 1, name: "Dogs", total: 2, byStatus: counts(1, 0, 1, 0) },
          { categoryId: 2, name: null, total: 1, byStatus: counts(0, 1, 0, 0) },
          { categoryId: 5, name: "Fish", total: 0, byStatus: counts() },
        ],
        other: { total: 0, byStatus: counts() },
      });
      await api.restore(max.id).expect(200);
      expect((await api.inventory()).byCategory[0]).toEqual({
        categoryId: 1,
        name: "Dogs",
        total: 3,
        byStatus: counts(1, 0, 1, 1),
      });
      // A purge takes only deleted pets: the counts stand.
      await api.deletePet(max.id).expect(204);
      const settings = {
        activityMs: 400 * DAY,
        deliveryMs: 30 * DAY,
        eventMs: 30 * DAY,
        idempotencyMs: DAY,
        deletedPetMs: 30 * DAY,
      };
      expect(
        (await purgeExpired(t.database.sql, settings, { now: () => new Date(Date.now() + 31 * DAY) })).deletedPets,
      ).toBe(1);
      const after = await api.inventory();
      expect(after.total).toBe(3);
      expect(after.byStatus).toEqual(counts(1, 1, 1, 0));
      // The list's own total agrees.
      expect((await api.list("?count=true")).headers["x-total-count"]).toBe("3");
    });

    it("lists every named category and the 100 largest unnamed ids; the rest is other", async () => {
      const t = await start(provider);
      const api = as(t);
      await api.createCategory({ name: "Empty", id: 500 }).expect(201);
      // Ids 1..102 without a name: id 1 has three pets, id 2 two, the others one each.
      await t.database.sql.transaction(function* () {
        const pets: Array<[number, string | null]> = [
          [1, "available"],
          [1, "sold"],
          [1, null],
          [2, "pending"],
          [2, "pending"],
        ];
        for (let id = 3; id <= 102; id++) pets.push([id, "available"]);
        for (const [categoryId, status] of pets) {
          yield* execute(
            sql`INSERT INTO "Pet" ("name", "nameKey", "categoryId", "status", "createdAt") VALUES ('P', 'p', ${categoryId}, ${status}, ${new Date()})`,
          );
        }
      });
      const inventory = await api.inventory();
      expect(inventory.total).toBe(105);
      expect(inventory.byCategory).toHaveLength(101);
      expect(inventory.byCategory.slice(0, 3).map((line) => [line.categoryId, line.total])).toEqual([
        [1, 3],
        [2, 2],
        [3, 1],
      ]);
      expect(inventory.byCategory.at(-1)).toEqual({ categoryId: 500, name: "Empty", total: 0, byStatus: counts() });
      expect(inventory.byCategory.map((line) => line.categoryId)).not.toContain(101);
      expect(inventory.other).toEqual({ total: 2, byStatus: counts(2, 0, 0, 0) });
    });

    it("stays exact with two replicas creating and changing pets at once", async () => {
      const one = await start(provider);
      const two = await start(provider, { DATABASE_URL: one.config.databaseUrl });
      const created = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          as(i % 2 === 0 ? one : two).createPet({ name: `Pet ${i}`, categoryId: 1 + (i % 3), status: "available" }),
        ),
      );
      await Promise.all(
        created.slice(0, 20).map((pet, i) =>
          as(i % 2 === 0 ? two : one)
            .patch(pet.id, [{ op: "replace", path: "/status", value: "sold" }])
            .expect(200),
        ),
      );
      await Promise.all(
        created.slice(20, 30).map((pet, i) =>
          as(i % 2 === 0 ? one : two)
            .deletePet(pet.id)
            .expect(204),
        ),
      );
      const inventory = await as(two).inventory();
      expect(inventory.total).toBe(30);
      expect(inventory.byStatus).toEqual(counts(10, 0, 20, 0));
      expect(inventory.byCategory.map((line) => line.total).reduce((a, b) => a + b, 0)).toBe(30);

      // PostgreSQL keeps each write's +1 or -1 as a delta row (decision 052) until a fold moves them into
      // the counts: two processes folding at once move each delta once, and the answers do not move.
      const deltas = () =>
        one.database.sql.read(() => firstRow<{ n: unknown }>(sql`SELECT count(*) AS "n" FROM "PetCountDelta"`));
      if (provider === "postgresql") expect(Number((await deltas())!.n)).toBe(40 + 2 * 20 + 10);
      const folded = await Promise.all([
        one.database.sql.transaction(foldPetCounts),
        two.database.sql.transaction(foldPetCounts),
      ]);
      expect(await as(one).inventory()).toEqual(inventory);
      if (provider === "postgresql") {
        expect(Number((await deltas())!.n)).toBe(0);
        expect(folded.some((rows) => rows > 0)).toBe(true);
        const rows = await one.database.sql.read(() =>
          firstRow<{ n: unknown }>(sql`SELECT count(*) AS "n" FROM "PetCount"`),
        );
        expect(Number(rows!.n)).toBeLessThanOrEqual(6); // one row per (categoryId, status): 3 categories, available or sold
      } else {
        expect(folded).toEqual([0, 0]);
      }
      // The process's own schedule folds the next writes.
      await as(one).createPet({ name: "Late", categoryId: 1 });
      const folding = startCountFolding(one.database.sql, { everyMs: 20 });
      try {
        if (provider === "postgresql") await expect.poll(async () => Number((await deltas())!.n)).toBe(0);
        else expect(folding).toBeUndefined();
      } finally {
        await folding?.stop();
      }
      expect((await as(two).inventory()).total).toBe(31);
    });
  });

  describe("listPets' extensions", () => {
    it("filters by categoryId, with status and name, and keeps it in Link; counts with X-Total-Count", async () => {
      const t = await start(provider);
      const api = as(t);
      const pets = [];
      for (let i = 0; i < 5; i++)
        pets.push(
          await api.createPet({ name: `Rex ${i}`, categoryId: 1 + (i % 2), status: i < 3 ? "available" : "sold" }),
        );
      const dogs = await api.list("?categoryId=1&limit=2&count=true");
      expect(Pets.parse(dogs.body)).toEqual([pets[0], pets[2]]);
      expect(dogs.headers["x-total-count"]).toBe("3");
      expect(dogs.headers["link"]).toBe(`</v1/pets?limit=2&categoryId=1&count=true&after=${pets[2]!.id}>; rel="next"`);
      expect((await api.list(`?categoryId=1&limit=2&count=true&after=${pets[2]!.id}`)).body).toEqual([pets[4]]);
      expect((await api.list("?categoryId=1&status=sold")).body).toEqual([pets[4]]);
      expect((await api.list("?categoryId=2&name=rex%203")).body).toEqual([pets[3]]);
      expect((await api.list("?status=sold&count=true")).headers["x-total-count"]).toBe("2");
      expect((await api.list("?name=rex&count=true&limit=1")).headers["x-total-count"]).toBe("5");
      expect((await api.list("?categoryId=9&count=true")).headers["x-total-count"]).toBe("0");
      // Without count=true nothing is counted.
      expect((await api.list("?categoryId=1")).headers["x-total-count"]).toBeUndefined();
      expectError(await api.list("?categoryId=0"), 400, "VALIDATION_ERROR");
      expectError(await api.list("?categoryId=1.0"), 400, "VALIDATION_ERROR");
      expectError(await api.list("?count=yes"), 400, "VALIDATION_ERROR");
    });

    it("before gives the page just below an id, in ascending order, with rel=prev and rel=next", async () => {
      const t = await start(provider);
      const api = as(t);
      const pets = [];
      for (let i = 0; i < 7; i++) pets.push(await api.createPet({ name: `Pet ${i}`, categoryId: 1 }));
      const ids = pets.map((pet) => pet.id);
      const middle = await api.list(`?limit=2&before=${ids[5]}`);
      expect(middle.body).toEqual([pets[3], pets[4]]);
      expect(middle.headers["link"]).toBe(
        `</v1/pets?limit=2&before=${ids[3]}>; rel="prev", </v1/pets?limit=2&after=${ids[4]}>; rel="next"`,
      );
      const first = await api.list(`?limit=2&before=${ids[2]}`);
      expect(first.body).toEqual([pets[0], pets[1]]);
      expect(first.headers["link"]).toBe(`</v1/pets?limit=2&after=${ids[1]}>; rel="next"`);
      // Below the first pet: an empty page, no link.
      const none = await api.list(`?before=${ids[0]}`);
      expect(none.body).toEqual([]);
      expect(none.headers["link"]).toBeUndefined();
      // The last page reached backwards from beyond the end has no next.
      expect((await api.list(`?limit=3&before=${ids[6]! + 10}`)).headers["link"]).toBe(
        `</v1/pets?limit=3&before=${ids[4]}>; rel="prev"`,
      );
      const both = expectError(await api.list(`?after=1&before=5`), 400, "VALIDATION_ERROR");
      expect(both.issues).toEqual([{ field: "query.before", message: "before and after cannot be used together" }]);
      expectError(await api.list("?before=0"), 400, "VALIDATION_ERROR");
    });
  });
});
