import { PET_STATUSES } from "@petstore/contract";
import { expect, expectPetRow, petCells, petRows, petTable, shownPetIds, test } from "./fixtures.js";

test("lists the seeded pets, 20 to a page, in id order", async ({ signedInPage: page }) => {
  await page.goto("/pets");
  await expect(petRows(page)).toHaveCount(20);
  const table = petTable(page);
  for (const column of ["ID", "Name", "Category", "Status"]) {
    await expect(table.getByRole("columnheader", { name: column, exact: true })).toBeVisible();
  }
  // The seed's first pets (apps/api/src/pets/demo-pets.ts), each with its category's name and status badge.
  await expectPetRow(petRows(page).first(), { id: 1, name: "Rex", category: "Dogs", status: "available" });
  await expect(table.getByRole("rowheader", { name: "Bella" })).toBeVisible();
  expect(await shownPetIds(page)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
});

test("filtering by each status shows only that status and puts it in the URL", async ({ signedInPage: page }) => {
  await page.goto("/pets");
  const table = petTable(page);
  for (const status of PET_STATUSES) {
    await page.getByLabel("Status").selectOption(status);
    await expect(page).toHaveURL(new RegExp(`[?&]status=${status}(&|$)`));
    await expect(petRows(page).first()).toBeVisible();
    const rows = await petRows(page).count();
    await expect(table.getByRole("cell", { name: status, exact: true })).toHaveCount(rows);
    for (const other of PET_STATUSES.filter((candidate) => candidate !== status)) {
      await expect(table.getByRole("cell", { name: other, exact: true })).toHaveCount(0);
    }
  }
  await page.getByLabel("Status").selectOption("All");
  await expect(page).not.toHaveURL(/status=/);
  await expect(petRows(page)).toHaveCount(20);
});

test("the back button returns to the previous filter", async ({ signedInPage: page }) => {
  await page.goto("/pets");
  await page.getByLabel("Status").selectOption("pending");
  await expect(page).toHaveURL(/status=pending/);
  await page.getByLabel("Status").selectOption("sold");
  await expect(page).toHaveURL(/status=sold/);
  await page.goBack();
  await expect(page).toHaveURL(/status=pending/);
  await expect(page.getByLabel("Status")).toHaveValue("pending");
  await expect(petTable(page).getByRole("cell", { name: "sold", exact: true })).toHaveCount(0);
});

test("page size and next page", async ({ signedInPage: page, api }) => {
  const total = (await (await api.get("/v1/pets?limit=100")).json()).length as number;
  expect(total).toBeGreaterThan(20);

  await page.goto("/pets");
  await page.getByLabel("Page size").selectOption("50");
  await expect(page).toHaveURL(/[?&]limit=50(&|$)/);
  await expect(petRows(page)).toHaveCount(Math.min(total, 50));

  await page.getByLabel("Page size").selectOption("20");
  await expect(petRows(page)).toHaveCount(20);
  const firstPage = await shownPetIds(page);
  await page.getByRole("link", { name: "Next page" }).click();
  const lastOnFirstPage = firstPage[firstPage.length - 1];
  await expect(page).toHaveURL(new RegExp(`[?&]after=${lastOnFirstPage}(&|$)`));
  await expect(page).toHaveURL(/[?&]limit=20(&|$)/);
  await expect(petCells(petRows(page).first()).first()).not.toHaveText(String(firstPage[0]));
  const secondPage = await shownPetIds(page);
  expect(secondPage[0]).toBeGreaterThan(lastOnFirstPage ?? Infinity);
  expect(secondPage.length).toBeGreaterThan(0);

  await page.goBack();
  expect(await shownPetIds(page)).toEqual(firstPage);
});

test("a bookmarked view opens as it was: status, page size and position", async ({ signedInPage: page }) => {
  await page.goto("/pets?status=available&limit=50&after=1");
  await expect(page.getByLabel("Status")).toHaveValue("available");
  await expect(page.getByLabel("Page size")).toHaveValue("50");
  // Seeded statuses rotate available, pending, sold, none: the first available pet after id 1 is id 5.
  await expectPetRow(petRows(page).first(), { id: 5, name: "Charlie", category: "Fish", status: "available" });
  await page.getByRole("link", { name: "First page" }).click();
  await expectPetRow(petRows(page).first(), { id: 1, name: "Rex", category: "Dogs", status: "available" });
  await expect(page).toHaveURL(/\/pets\?status=available&limit=50$/);
});
