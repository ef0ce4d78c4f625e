import { fileURLToPath } from "node:url";
import { expect, petRows, test } from "../browser/fixtures.js";

const SCREENSHOTS = fileURLToPath(new URL("../../docs/screenshots/", import.meta.url));

test("the pet list", async ({ signedInPage: page }) => {
  await page.goto("/pets");
  await expect(petRows(page)).toHaveCount(20);
  await page.mouse.move(0, 0); // no hover highlight in the picture
  await page.screenshot({ path: `${SCREENSHOTS}pet-list.png`, fullPage: true });
});

test("the add-pet form, with a field error", async ({ signedInPage: page }) => {
  await page.getByRole("link", { name: "New pet" }).click();
  await page.getByLabel("Name").fill("Biscuit");
  await page.getByLabel("Category", { exact: true }).selectOption("Other id…");
  await page.getByLabel("Category ID").fill("0");
  await page.getByLabel("Status").selectOption("available");
  await page.getByRole("button", { name: "Add pet" }).click();
  await expect(page.getByLabel("Category ID")).toHaveAccessibleDescription(/at least 1/);
  await page.getByLabel("Category ID").focus();
  await page.screenshot({ path: `${SCREENSHOTS}add-pet-form.png` });
});

test("the pet list at phone width", async ({ signedInPage: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/pets");
  await page.getByLabel("Status").selectOption("available");
  await expect(petRows(page).first()).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}pet-list-phone.png` });
});

test("the Keys page, just after issuing a key", async ({ signedInPage: page }) => {
  await page.getByRole("link", { name: "Keys" }).click();
  await page.getByLabel("Name").fill("Front desk");
  await page.getByLabel("Scope").selectOption("read");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByLabel("New key")).toHaveValue(/^psk_/);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: `${SCREENSHOTS}keys-page.png`, fullPage: true });
});

test("the Activity page", async ({ signedInPage: page }) => {
  await page.getByRole("link", { name: "Activity" }).click();
  await expect(page.getByRole("table")).toBeVisible();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: `${SCREENSHOTS}activity-page.png`, fullPage: true });
});
