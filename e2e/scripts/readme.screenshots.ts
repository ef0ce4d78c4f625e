import { fileURLToPath } from "node:url";
import { expect, petRows, test } from "../browser/fixtures.js";

const SCREENSHOTS = fileURLToPath(new URL("../../docs/screenshots/", import.meta.url));

test("the pet list", async ({ signedInPage: page }) => {
  await expect(petRows(page)).toHaveCount(20);
  await page.mouse.move(0, 0); // no hover highlight in the picture
  await page.screenshot({ path: `${SCREENSHOTS}pet-list.png`, fullPage: true });
});

test("the add-pet form, with a field error", async ({ signedInPage: page }) => {
  await page.getByRole("link", { name: "New pet" }).click();
  await page.getByLabel("Name").fill("Biscuit");
  await page.getByLabel("Category ID").fill("0");
  await page.getByLabel("Status").selectOption("available");
  await page.getByRole("button", { name: "Add pet" }).click();
  await expect(page.getByLabel("Category ID")).toHaveAccessibleDescription(/at least 1/);
  await page.getByLabel("Category ID").focus();
  await page.screenshot({ path: `${SCREENSHOTS}add-pet-form.png` });
});

test("the pet list at phone width", async ({ signedInPage: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel("Status").selectOption("available");
  await expect(petRows(page).first()).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}pet-list-phone.png` });
});
