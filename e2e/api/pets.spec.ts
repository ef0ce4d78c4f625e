import { ErrorBody, Pet, Pets } from "@petstore/contract";
import { expect, test } from "./fixtures.js";

test("lists the seeded pets in id order, 20 by default", async ({ api }) => {
  const response = await api.get("/v1/pets");
  expect(response.status()).toBe(200);
  const pets = Pets.parse(await response.json());
  expect(pets).toHaveLength(20);
  expect(pets.map((pet) => pet.id)).toEqual([...pets.map((pet) => pet.id)].sort((a, b) => a - b));
  expect(response.headers()["link"]).toMatch(/rel="next"/);
});

test("filters by status", async ({ api }) => {
  for (const status of ["available", "pending", "sold"] as const) {
    const pets = Pets.parse(await (await api.get(`/v1/pets?status=${status}&limit=100`)).json());
    expect(pets.length).toBeGreaterThan(0);
    expect(pets.every((pet) => pet.status === status)).toBe(true);
  }
});

test("creates a pet and reads it back through the deprecated getPet", async ({ api }) => {
  const created = await api.post("/v1/pets", { data: { name: "  Playwright  ", categoryId: 9, status: "pending" } });
  expect(created.status()).toBe(201);
  const pet = Pet.parse(await created.json());
  expect(pet).toMatchObject({ name: "Playwright", categoryId: 9, status: "pending" });

  const read = await api.get(`/v1/pets/${pet.id}`);
  expect(read.status()).toBe(200);
  expect(await read.json()).toEqual(pet);
  expect(read.headers()["deprecation"]).toMatch(/^@\d+$/);
  expect(read.headers()["sunset"]).toBe("Thu, 05 Dec 2030 00:00:00 GMT");
});

test("refuses requests without a valid key", async ({ request }) => {
  for (const headers of [{}, { Authorization: "Bearer not-the-key" }] as Array<Record<string, string>>) {
    const response = await request.get("/v1/pets", { headers });
    expect(response.status()).toBe(401);
    expect(response.headers()["www-authenticate"]).toMatch(/^Bearer/);
    expect(ErrorBody.parse(await response.json()).code).toBe("UNAUTHORIZED");
  }
});

test("answers invalid input and missing pets with the Error body", async ({ api }) => {
  const invalid = await api.post("/v1/pets", { data: { name: "", categoryId: 0 } });
  expect(invalid.status()).toBe(400);
  expect(ErrorBody.parse(await invalid.json()).code).toBe("VALIDATION_ERROR");
  const missing = await api.get("/v1/pets/987654321");
  expect(missing.status()).toBe(404);
  expect(ErrorBody.parse(await missing.json()).code).toBe("NOT_FOUND");
});

test("publishes the OpenAPI document", async ({ request }) => {
  const response = await request.get("/v1/openapi.json");
  expect(response.status()).toBe(200);
  const document = await response.json();
  expect(document.paths["/pets/{petId}"].get.deprecated).toBe(true);
});
