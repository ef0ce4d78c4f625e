import type { Locator, Page } from "@playwright/test";
import {
  createPet,
  expect,
  issueKey,
  petNow,
  petRows,
  runSuffix,
  signedInPageInNewContext,
  statusMessage,
  test,
} from "./fixtures.js";

function deletedRow(page: Page, name: string): Locator {
  return page
    .getByRole("table", { name: "Recently deleted" })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name, exact: true }) });
}

test("Recently deleted lists a deleted pet (when, by whom, when it is purged), and Restore brings it back", async ({
  signedInPage: page,
  api,
}) => {
  const pet = await createPet(api, { name: `Gone ${runSuffix()}`, categoryId: 6, status: "pending" });
  const deleted = await api.delete(`/v1/pets/${pet.id}`);
  expect(deleted.status()).toBe(204);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Recently deleted" }).click();
  await expect(page).toHaveURL(/\/pets\/deleted$/);
  await expect(page.getByRole("heading", { name: "Recently deleted", level: 1 })).toBeVisible();
  const table = page.getByRole("table", { name: "Recently deleted" });
  await expect(table.getByRole("columnheader")).toHaveText(["Name", "Deleted", "By", "Purged on", "Actions"]);
  // Latest deletion first: this one.
  await expect(table.getByRole("rowheader").first()).toHaveText(pet.name);
  const row = deletedRow(page, pet.name);
  await expect(row.getByRole("cell")).toHaveText([/\d/, "Configured key 1", /\d{4}/, "Restore"]);
  const purgeAt = await row.getByRole("cell").nth(2).locator("time").getAttribute("datetime");
  const deletedAt = await row.getByRole("cell").nth(0).locator("time").getAttribute("datetime");
  // Kept 30 days.
  expect(Date.parse(purgeAt ?? "") - Date.parse(deletedAt ?? "")).toBeGreaterThanOrEqual(29 * 24 * 3600_000);

  await row.getByRole("button", { name: "Restore" }).click();
  await expect(statusMessage(page)).toContainText(`Restored ${pet.name}.`);
  await expect(row).toHaveCount(0);
  expect(await petNow(api, pet.id)).toEqual(pet);

  await page.goto(`/pets/${pet.id}`);
  await expect(page.getByRole("heading", { name: pet.name, level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "History" }).getByRole("listitem").first()).toContainText(
    "Restored by Configured key 1",
  );
});

test("a read session sees none of the change controls", async ({ browser, api }) => {
  const pet = await createPet(api, { name: `Look ${runSuffix()}`, categoryId: 2, status: "available" });
  const readKey = await issueKey(api, "read");
  const { page, close } = await signedInPageInNewContext(browser, readKey.secret);
  try {
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(["Overview", "Pets"]);
    await page.goto("/pets");
    await expect(petRows(page).first()).toBeVisible();
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await expect(page.getByRole("toolbar")).toHaveCount(0);

    await page.goto(`/pets/${pet.id}`);
    await expect(page.getByRole("heading", { name: pet.name, level: 1 })).toBeVisible();
    await expect(page.getByRole("group", { name: `Change ${pet.name}` })).toHaveCount(0);
    for (const name of ["Reserve", "Mark sold", "Mark available", "Edit", "Delete"]) {
      await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
    }
    // The history is there, without names: the API gives them to sessions that may change pets only.
    await expect(page.getByRole("region", { name: "History" }).getByRole("listitem").first()).toContainText(
      "Created by someone",
    );

    await page.goto("/pets/deleted");
    await expect(page.getByRole("heading", { name: "Recently deleted", level: 1 })).toBeVisible();
    await expect(page.getByText("This key can only read pets.")).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
  } finally {
    await close();
  }
});
