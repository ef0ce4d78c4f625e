import { MAX_ID, Pet, Pets } from "@petstore/contract";
import request from "supertest";
import { expectError } from "../test/expect-error.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bearer, createTestApp, SECOND_TEST_KEY, TEST_KEY, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";

describe.each(TEST_PROVIDERS)("pets API on %s", (provider) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({}, provider);
  });
  afterEach(async () => {
    await t.close();
  });

  const api = () => request(t.app);
  const createPet = (body: unknown) =>
    api()
      .post("/v1/pets")
      .set("Authorization", bearer())
      .send(body as object);
  const listPets = (query = "") => api().get(`/v1/pets${query}`).set("Authorization", bearer());
  const getPet = (id: string | number) => api().get(`/v1/pets/${id}`).set("Authorization", bearer());

  async function addPets(
    count: number,
    make: (index: number) => object = (i) => ({ name: `pet ${i}`, categoryId: 1 }),
  ) {
    const pets: Pet[] = [];
    for (let i = 0; i < count; i++) pets.push(Pet.parse((await createPet(make(i)).expect(201)).body));
    return pets;
  }

  async function storedCount() {
    return (await listPets("?limit=100")).body.length as number;
  }

  describe("createPet (POST /v1/pets)", () => {
    it("201: returns the created pet with its assigned id", async () => {
      const response = await createPet({ name: "Rex", categoryId: 3, status: "available" });
      expect(response.status).toBe(201);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(response.body).toEqual({ id: expect.any(Number), name: "Rex", categoryId: 3, status: "available" });
      expect(response.headers["location"]).toBe(`/v1/pets/${response.body.id}`);
    });

    it("201: status is optional and absent from the pet when not given", async () => {
      const response = await createPet({ name: "Tom", categoryId: 1 }).expect(201);
      expect(response.body).toEqual({ id: expect.any(Number), name: "Tom", categoryId: 1 });
      expect("status" in response.body).toBe(false);
    });

    it("stores the name trimmed and ignores unknown fields, including a client-chosen id", async () => {
      const response = await createPet({ name: "  Kit  ", categoryId: 2, id: 999, owner: "x" }).expect(201);
      expect(response.body).toEqual({ id: expect.any(Number), name: "Kit", categoryId: 2 });
      expect(response.body.id).not.toBe(999);
      expect((await getPet(response.body.id)).body).toEqual(response.body);
    });

    it("keeps int64 category ids exact up to 2^53-1", async () => {
      const response = await createPet({ name: "Big", categoryId: MAX_ID }).expect(201);
      expect(response.body.categoryId).toBe(MAX_ID);
      expect((await getPet(response.body.id)).body.categoryId).toBe(MAX_ID);
    });

    it.each([
      ["name missing", { categoryId: 1 }, "name"],
      ["categoryId missing", { name: "x" }, "categoryId"],
      ["name empty after trimming", { name: "   ", categoryId: 1 }, "name"],
      ["name over 100 characters", { name: "a".repeat(101), categoryId: 1 }, "name"],
      ["name not a string", { name: 7, categoryId: 1 }, "name"],
      ["categoryId zero", { name: "x", categoryId: 0 }, "categoryId"],
      ["categoryId negative", { name: "x", categoryId: -4 }, "categoryId"],
      ["categoryId fractional", { name: "x", categoryId: 1.5 }, "categoryId"],
      ["categoryId a string", { name: "x", categoryId: "1" }, "categoryId"],
      ["categoryId beyond 2^53-1", { name: "x", categoryId: MAX_ID + 1 }, "categoryId"],
      ["unknown status", { name: "x", categoryId: 1, status: "adopted" }, "status"],
      ["status null", { name: "x", categoryId: 1, status: null }, "status"],
      ["a JSON array", [{ name: "x", categoryId: 1 }], "body"],
    ])("400 when %s, naming the field, storing nothing", async (_case, body, field) => {
      const error = expectError(await createPet(body), 400, "VALIDATION_ERROR");
      expect(error.message).toContain(field);
      expect(error.issues?.map((issue) => issue.field)).toContain(field === "body" ? "body" : `body.${field}`);
      expect(await storedCount()).toBe(0);
    });

    it("400 when the body is missing", async () => {
      expectError(await api().post("/v1/pets").set("Authorization", bearer()), 400, "VALIDATION_ERROR");
      expect(await storedCount()).toBe(0);
    });

    it("400 on malformed JSON, storing nothing", async () => {
      const response = await api()
        .post("/v1/pets")
        .set("Authorization", bearer())
        .set("Content-Type", "application/json")
        .send('{"name": "x", "categoryId": 1');
      const error = expectError(response, 400, "VALIDATION_ERROR");
      expect(error.message).toMatch(/not valid JSON/);
      expect(await storedCount()).toBe(0);
    });

    it("413 when the body is over 16 KiB, storing nothing", async () => {
      const response = await createPet({ name: "x", categoryId: 1, padding: "a".repeat(17 * 1024) });
      expectError(response, 413, "PAYLOAD_TOO_LARGE");
      expect(await storedCount()).toBe(0);
    });

    it("415 when the body is not sent as application/json, storing nothing", async () => {
      const form = await api().post("/v1/pets").set("Authorization", bearer()).type("form").send("name=x&categoryId=1");
      expectError(form, 415, "UNSUPPORTED_MEDIA_TYPE");
      const text = await api()
        .post("/v1/pets")
        .set("Authorization", bearer())
        .set("Content-Type", "text/plain")
        .send('{"name":"x","categoryId":1}');
      expectError(text, 415, "UNSUPPORTED_MEDIA_TYPE");
      expect(await storedCount()).toBe(0);
    });

    it("accepts application/json with a charset parameter", async () => {
      await api()
        .post("/v1/pets")
        .set("Authorization", bearer())
        .set("Content-Type", "application/json; charset=utf-8")
        .send(JSON.stringify({ name: "x", categoryId: 1 }))
        .expect(201);
    });

    it("assigns unique ids under 100 concurrent creates, losing none", async () => {
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, i) => createPet({ name: `concurrent ${i}`, categoryId: (i % 7) + 1 })),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(100).fill(201));
      const ids = responses.map((r) => r.body.id as number);
      expect(new Set(ids).size).toBe(100);
      const listed = Pets.parse((await listPets("?limit=100")).body);
      expect(listed.map((pet) => pet.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
      for (const response of responses) expect(listed).toContainEqual(response.body);
    });
  });

  describe("listPets (GET /v1/pets)", () => {
    it("200: an empty store lists an empty array", async () => {
      const response = await listPets().expect(200);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(response.body).toEqual([]);
      expect(response.headers["link"]).toBeUndefined();
    });

    it("returns pets in ascending id order, 20 by default", async () => {
      const created = await addPets(25);
      const response = await listPets().expect(200);
      expect(Pets.parse(response.body)).toEqual(created.slice(0, 20));
    });

    it("honours limit at its bounds 1 and 100", async () => {
      const created = await addPets(101, (i) => ({ name: `p${i}`, categoryId: 1 }));
      expect((await listPets("?limit=1").expect(200)).body).toEqual(created.slice(0, 1));
      expect((await listPets("?limit=100").expect(200)).body).toEqual(created.slice(0, 100));
    });

    it.each(["0", "101", "-1", "1.5", "7.0", "1e1", "0x10", "abc", ""])(
      "400 for limit=%s, never clamping",
      async (limit) => {
        const error = expectError(await listPets(`?limit=${encodeURIComponent(limit)}`), 400, "VALIDATION_ERROR");
        expect(error.message).toContain("limit");
        expect(error.issues).toEqual([{ field: "query.limit", message: expect.stringContaining("limit") }]);
      },
    );

    it("400 for a repeated limit", async () => {
      expectError(await listPets("?limit=5&limit=6"), 400, "VALIDATION_ERROR");
    });

    it.each(["available", "pending", "sold"] as const)(
      "status=%s returns only pets with that status",
      async (status) => {
        const statuses = ["available", "pending", "sold", undefined] as const;
        const created = await addPets(12, (i) => {
          const s = statuses[i % 4];
          return { name: `p${i}`, categoryId: 1, ...(s ? { status: s } : {}) };
        });
        const response = await listPets(`?status=${status}`).expect(200);
        const pets = Pets.parse(response.body);
        expect(pets).toEqual(created.filter((pet) => pet.status === status));
        expect(pets).toHaveLength(3);
      },
    );

    it.each(["AVAILABLE", "adopted", ""])("400 for status=%s", async (status) => {
      const error = expectError(await listPets(`?status=${status}`), 400, "VALIDATION_ERROR");
      expect(error.message).toContain("status");
    });

    it("ignores unknown query parameters", async () => {
      await addPets(2);
      expect((await listPets("?foo=bar").expect(200)).body).toHaveLength(2);
    });

    describe("pagination with after (extension)", () => {
      it("follows Link rel=next through every page, and the last page has none", async () => {
        const created = await addPets(7);
        const seen: Pet[] = [];
        let next: string | undefined = "/v1/pets?limit=3";
        let pages = 0;
        while (next) {
          const response = await api().get(next).set("Authorization", bearer()).expect(200);
          seen.push(...Pets.parse(response.body));
          pages++;
          const link = response.headers["link"] as string | undefined;
          next = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
          if (link) expect(next).toBeDefined();
        }
        expect(pages).toBe(3);
        expect(seen).toEqual(created);
      });

      it("no Link when the page holds exactly the remaining pets", async () => {
        await addPets(3);
        const response = await listPets("?limit=3").expect(200);
        expect(response.body).toHaveLength(3);
        expect(response.headers["link"]).toBeUndefined();
      });

      it("keeps the status filter in the next link", async () => {
        const created = await addPets(6, (i) => ({ name: `p${i}`, categoryId: 1, status: i % 2 ? "sold" : "pending" }));
        const sold = created.filter((pet) => pet.status === "sold");
        const first = await listPets("?status=sold&limit=2").expect(200);
        expect(first.body).toEqual(sold.slice(0, 2));
        expect(first.headers["link"]).toBe(`</v1/pets?limit=2&status=sold&after=${sold[1]!.id}>; rel="next"`);
        const second = await listPets(`?status=sold&limit=2&after=${sold[1]!.id}`).expect(200);
        expect(second.body).toEqual(sold.slice(2));
      });

      it("400 for a malformed after", async () => {
        expectError(await listPets("?after=x"), 400, "VALIDATION_ERROR");
        expectError(await listPets("?after=-1"), 400, "VALIDATION_ERROR");
      });
    });
  });

  describe("getPet (GET /v1/pets/:petId, deprecated)", () => {
    it("200: returns the pet", async () => {
      const [pet] = await addPets(1, () => ({ name: "Rex", categoryId: 4, status: "pending" }));
      const response = await getPet(pet!.id).expect(200);
      expect(response.body).toEqual({ id: pet!.id, name: "Rex", categoryId: 4, status: "pending" });
    });

    it("404 for a well-formed id that does not exist, up to 2^53-1", async () => {
      for (const id of ["12345", String(MAX_ID)]) {
        const error = expectError(await getPet(id), 404, "NOT_FOUND");
        expect(error.message).toContain(id);
      }
    });

    it.each(["0", "7.0", "7e0", "0x7", "%207", "-1", "abc", String(MAX_ID + 1), "99999999999999999999"])(
      "400 for petId %s, never a pet",
      async (id) => {
        await addPets(7);
        const error = expectError(await getPet(id), 400, "VALIDATION_ERROR");
        expect(error.message).toContain("petId");
        expect(error.issues?.[0]?.field).toBe("path.petId");
      },
    );

    it("carries Deprecation, Sunset and successor Link on every response", async () => {
      const [pet] = await addPets(1);
      const responses = [
        await getPet(pet!.id),
        await getPet(999),
        await getPet("x"),
        await api().get(`/v1/pets/${pet!.id}`),
      ];
      expect(responses.map((r) => r.status)).toEqual([200, 404, 400, 401]);
      for (const response of responses) {
        expect(response.headers["deprecation"]).toMatch(/^@\d+$/);
        expect(response.headers["sunset"]).toBe("Thu, 05 Dec 2030 00:00:00 GMT");
        expect(response.headers["link"]).toBe('</v1/pets>; rel="successor-version"');
      }
    });

    it("listPets and createPet carry no deprecation headers", async () => {
      expect((await listPets()).headers["deprecation"]).toBeUndefined();
      expect((await createPet({ name: "x", categoryId: 1 })).headers["deprecation"]).toBeUndefined();
    });
  });

  describe("authentication on every operation", () => {
    const operations = [
      ["listPets", () => api().get("/v1/pets")],
      ["createPet", () => api().post("/v1/pets").send({ name: "x", categoryId: 1 })],
      ["getPet", () => api().get("/v1/pets/1")],
    ] as const;

    it.each(operations)("%s: 401 with WWW-Authenticate when the key is missing", async (_name, send) => {
      const response = await send();
      const error = expectError(response, 401, "UNAUTHORIZED");
      expect(response.headers["www-authenticate"]).toMatch(/^Bearer/);
      expect(error.message).toMatch(/API key/);
    });

    it.each(operations)("%s: 401 for a wrong key, a wrong scheme or a malformed header", async (_name, send) => {
      for (const header of [
        "Bearer wrong-key",
        "Basic dGVzdDp0ZXN0",
        TEST_KEY,
        "Bearer",
        "Bearer  ",
        `Bearer ${TEST_KEY.toUpperCase()}`,
      ]) {
        const response = await send().set("Authorization", header);
        expectError(response, 401, "UNAUTHORIZED");
        expect(response.headers["www-authenticate"]).toMatch(/^Bearer/);
        expect(JSON.stringify(response.body)).not.toContain("wrong-key");
      }
    });

    it("401 comes before validation: a bad request without a key is 401, and stores nothing", async () => {
      expectError(await api().get("/v1/pets?limit=0"), 401, "UNAUTHORIZED");
      expectError(await api().get("/v1/pets/abc"), 401, "UNAUTHORIZED");
      expectError(
        await api().post("/v1/pets").set("Content-Type", "application/json").send("{bad json"),
        401,
        "UNAUTHORIZED",
      );
      expectError(await api().post("/v1/pets").send({ name: "x", categoryId: 1 }), 401, "UNAUTHORIZED");
      expect(await storedCount()).toBe(0);
    });

    it("accepts the scheme name in any case, and every configured key (rotation)", async () => {
      await api().get("/v1/pets").set("Authorization", `bearer ${TEST_KEY}`).expect(200);
      await api().get("/v1/pets").set("Authorization", `BEARER ${TEST_KEY}`).expect(200);
      await api().get("/v1/pets").set("Authorization", bearer(SECOND_TEST_KEY)).expect(200);
    });
  });
});
