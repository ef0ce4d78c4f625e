import { expect, petTable, test } from "./fixtures.js";

test("a pet's name opens its page, which survives a reload", async ({ signedInPage: page }) => {
  await page.goto("/pets");
  await petTable(page).getByRole("link", { name: "Bella" }).click();
  await expect(page).toHaveURL(/\/pets\/2$/);
  await expect(page.getByRole("heading", { name: "Bella", level: 1 })).toBeVisible();
  // Category 2, by its name.
  await expect(page.getByRole("definition")).toHaveText(["2", "Bella", "Cats", "pending"]);

  await page.reload();
  await expect(page.getByRole("heading", { name: "Bella", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Back to pets" }).click();
  await expect(page.getByRole("heading", { name: "Pets", level: 1 })).toBeVisible();
});

test("a pet that does not exist shows a not-found page", async ({ signedInPage: page }) => {
  await page.goto("/pets/987654321");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("not found");
  await expect(page.getByText("There is no pet with id 987654321.")).toBeVisible();
});

test("a malformed id shows a not-found page", async ({ signedInPage: page }) => {
  for (const id of ["abc", "0", "7.0", "-1"]) {
    await page.goto(`/pets/${id}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("not found");
  }
});

test("an unknown address shows a not-found page", async ({ signedInPage: page }) => {
  await page.goto("/nothing/here");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("not found");
});
