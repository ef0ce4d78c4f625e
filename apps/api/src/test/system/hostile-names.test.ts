/**
 * Names that lie or that a database cannot hold, on every provider of the run:
 * an unpaired surrogate (the JSON `"\ud800"`), which PostgreSQL's driver refuses
 * as a parameter (it answered 500), and bidirectional formatting characters
 * (U+202E and the like), which make a pet's or a key's name display as another
 * in the admin app and the activity log. Both are 400 naming `name`, on
 * createPet, createKey and the `name` search alike, and nothing is stored.
 */
import { ApiKeys, AuditEvents, Pets } from "@petstore/contract";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../expect-error.js";
import { bearer, createTestApp, TEST_PROVIDERS, type TestApp } from "../test-app.js";

const HOSTILE_NAMES: Array<[string, string]> = [
  ["a lone high surrogate", "\ud800"],
  ["a lone high surrogate after text", "Rex\ud800"],
  ["a lone low surrogate", "\udc00Rex"],
  ["a surrogate pair reversed", "Re\udc36\ud83dx"],
  ["a right-to-left override (U+202E)", "Rex\u202egnp.exe"],
  ["a left-to-right override (U+202D)", "\u202dRex"],
  ["a right-to-left isolate (U+2067)", "Rex\u2067x"],
  ["a pop directional isolate (U+2069)", "Rex\u2069"],
  ["a right-to-left mark (U+200F)", "Rex\u200f"],
  ["an Arabic letter mark (U+061C)", "Rex\u061c"],
];

describe.each(TEST_PROVIDERS)("hostile names on %s", (provider) => {
  let t: TestApp;
  const api = () => request(t.app);

  beforeAll(async () => {
    t = await createTestApp({}, provider);
  });

  afterAll(async () => {
    await t?.close();
  });

  const storedPets = async () =>
    Pets.parse((await api().get("/v1/pets?limit=100").set("Authorization", bearer()).expect(200)).body);
  const storedKeys = async () =>
    ApiKeys.parse((await api().get("/admin/v1/keys").set("Authorization", bearer()).expect(200)).body);
  const events = async () =>
    AuditEvents.parse((await api().get("/admin/v1/audit-events").set("Authorization", bearer()).expect(200)).body);

  it.each(HOSTILE_NAMES)("createPet: 400 naming body.name for %s, storing nothing", async (_case, name) => {
    const pets = await storedPets();
    const response = await api().post("/v1/pets").set("Authorization", bearer()).send({ name, categoryId: 1 });
    const error = expectError(response, 400, "VALIDATION_ERROR");
    expect(error.issues?.map((issue) => issue.field)).toEqual(["body.name"]);
    expect(await storedPets()).toEqual(pets);
  });

  it.each(HOSTILE_NAMES)("createKey: 400 naming body.name for %s, storing nothing", async (_case, name) => {
    const keys = await storedKeys();
    const response = await api().post("/admin/v1/keys").set("Authorization", bearer()).send({ name, scope: "read" });
    const error = expectError(response, 400, "VALIDATION_ERROR");
    expect(error.issues?.map((issue) => issue.field)).toEqual(["body.name"]);
    expect(await storedKeys()).toEqual(keys);
  });

  it("listPets: 400 naming query.name for a bidirectional character in the search (a query cannot carry a lone surrogate)", async () => {
    for (const search of ["%E2%80%AE", "Rex%E2%81%A6", "%E2%80%8F"]) {
      const error = expectError(
        await api().get(`/v1/pets?name=${search}`).set("Authorization", bearer()),
        400,
        "VALIDATION_ERROR",
      );
      expect(
        error.issues?.map((issue) => issue.field),
        search,
      ).toEqual(["query.name"]);
    }
  });

  it("still stores well-formed names from every plane, and the activity log holds only those", async () => {
    for (const name of ["🐕 Rex", "Émile", "שלום", "مرحبا", "x\u00a0y", "𝔘𝔫𝔦"]) {
      const created = await api()
        .post("/v1/pets")
        .set("Authorization", bearer())
        .send({ name, categoryId: 1 })
        .expect(201);
      expect(created.body.name).toBe(name);
    }
    const key = await api()
      .post("/admin/v1/keys")
      .set("Authorization", bearer())
      .send({ name: "Réception 🐕", scope: "read" })
      .expect(201);
    expect(key.body.key.name).toBe("Réception 🐕");
    const labels = (await events()).map((event) => event.target.label);
    expect(labels).toEqual(expect.arrayContaining(["🐕 Rex", "Réception 🐕"]));
    for (const label of labels) expect(label).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\p{Cs}/u);
  });
});
