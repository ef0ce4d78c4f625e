import { expect, test } from "./fixtures.js";

test("keyboard shortcuts: / searches, n opens New pet, ? lists them; none fires while typing; turned off, remembered", async ({
  signedInPage: page,
}) => {
  // From the Overview, "/" opens the list with its search focused.
  await page.keyboard.press("/");
  await expect(page).toHaveURL(/\/pets$/);
  const search = page.getByLabel("Search by name");
  await expect(search).toBeFocused();
  // Typing in the field: "n" is text.
  await page.keyboard.type("n");
  await expect(search).toHaveValue("n");
  await expect(page).not.toHaveURL(/\/pets\/new$/);

  await page.getByRole("heading", { name: "Pets", level: 1 }).click();
  await page.keyboard.press("n");
  await expect(page.getByRole("heading", { name: "New pet", level: 1 })).toBeVisible();

  await page.getByRole("heading", { name: "New pet", level: 1 }).click();
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await dialog.getByRole("checkbox", { name: "Use single-key shortcuts" }).uncheck();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);

  // Off, and still off after a reload: "n" does nothing; the header's button turns them on again.
  await page.goto("/pets");
  await page.getByRole("heading", { name: "Pets", level: 1 }).click();
  await page.keyboard.press("n");
  await expect(page).toHaveURL(/\/pets$/);
  await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
  await page
    .getByRole("dialog", { name: "Keyboard shortcuts" })
    .getByRole("checkbox", { name: "Use single-key shortcuts" })
    .check();
  await page.getByRole("button", { name: "Close" }).click();
  await page.keyboard.press("n");
  await expect(page.getByRole("heading", { name: "New pet", level: 1 })).toBeVisible();
});
