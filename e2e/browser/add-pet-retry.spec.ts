import { allPets, expect, runSuffix, test } from "./fixtures.js";

test("a create whose answer is lost is sent again with the same key, and the pet is added once", async ({
  signedInPage: page,
  api,
}) => {
  const name = `Lost answer ${runSuffix()}`;
  const keys: (string | null)[] = [];
  await page.route("**/v1/pets", async (route) => {
    const request = route.request();
    if (request.method() !== "POST") return route.fallback();
    keys.push(await request.headerValue("idempotency-key"));
    if (keys.length > 1) return route.fallback();
    // The first attempt reaches the API, which saves the pet; the browser then sees the connection fail.
    const response = await route.fetch();
    expect(response.status()).toBe(201);
    await route.abort("failed");
  });

  await page.getByRole("link", { name: "New pet" }).click();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Category", { exact: true }).selectOption("Rabbits");
  await page.getByRole("button", { name: "Add pet" }).click();

  await expect(page.getByRole("status")).toContainText(`Added ${name} (id `);
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^\S{1,255}$/);
  expect(keys[1]).toBe(keys[0]);
  const stored = (await allPets(api)).filter((pet) => pet.name === name);
  expect(stored).toHaveLength(1);
  await expect(page.getByRole("status")).toContainText(`Added ${name} (id ${stored[0]?.id}).`);
});
