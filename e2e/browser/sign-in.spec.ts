import { E2E_API_KEY } from "../playwright.config.js";
import { expect, petRows, signIn, test } from "./fixtures.js";

test("a wrong key is refused and the page stays on sign-in", async ({ page }) => {
  await page.goto("/pets");
  await expect(page).toHaveURL(/\/sign-in$/);
  await signIn(page, "not-the-key");
  await expect(page.getByRole("alert")).toContainText("refused");
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByLabel("API key")).toBeVisible();
});

test("the right key is accepted and leads back to the page asked for", async ({ page }) => {
  await page.goto("/pets?status=sold&limit=50");
  await signIn(page, E2E_API_KEY);
  await expect(page.getByRole("heading", { name: "Pets", level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/pets\?status=sold&limit=50$/);
  await expect(petRows(page).first()).toBeVisible();
});

test("a key the API stops accepting returns to sign-in with a message", async ({ signedInPage: page }) => {
  // As if the key had been rotated away while the tab was open.
  await page.evaluate(() => sessionStorage.setItem("petstore.apiKey", "rotated-away"));
  await page.reload();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole("alert")).toContainText("refused");
});

test("signing out forgets the key", async ({ signedInPage: page }) => {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.goto("/pets");
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("every signed-in page offers Sign out", async ({ signedInPage: page }) => {
  for (const path of ["/pets", "/pets/new", "/pets/1", "/pets/999999999", "/no-such-page"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  }
});
