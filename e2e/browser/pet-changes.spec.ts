import type { Pet } from "@petstore/contract";
import type { Locator, Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config.js";
import {
  createPet,
  expect,
  issueKey,
  petNow,
  runSuffix,
  signedInPageInNewContext,
  statusMessage,
  test as base,
} from "./fixtures.js";

/** The configured e2e key (admin), as the API names whoever uses it. */
const E2E_KEY_NAME = "Configured key 1";

/** `pet`: an available pet added through the API for this test alone, so no other spec sees it change. */
const test = base.extend<{ pet: Pet }>({
  pet: async ({ api }, use) => {
    await use(await createPet(api, { name: `Rex ${runSuffix()}`, categoryId: 1, status: "available" }));
  },
});

function changeGroup(page: Page, name: string): Locator {
  return page.getByRole("group", { name: `Change ${name}` });
}

function historyEntries(page: Page): Locator {
  return page.getByRole("region", { name: "History" }).getByRole("listitem");
}

async function openPet(page: Page, pet: Pet): Promise<void> {
  await page.goto(`/pets/${pet.id}`);
  await expect(page.getByRole("heading", { name: pet.name, level: 1 })).toBeVisible();
}

test("Reserve, then Mark sold, from the pet's page; each tests the status shown, and the history says so", async ({
  signedInPage: page,
  api,
  pet,
}) => {
  const patches: Array<{ key: string | null; body: unknown }> = [];
  page.on("request", (request) => {
    if (request.method() === "PATCH")
      patches.push({ key: request.headers()["idempotency-key"] ?? null, body: request.postDataJSON() });
  });
  await openPet(page, pet);
  const group = changeGroup(page, pet.name);
  await expect(group.getByRole("button")).toHaveText(["Reserve", "Mark sold", "Edit", "Delete"]);

  await group.getByRole("button", { name: "Reserve" }).click();
  await expect(statusMessage(page)).toContainText(`Reserved ${pet.name}.`);
  await expect(page.getByRole("definition").nth(3)).toHaveText("pending");
  await expect(group.getByRole("button")).toHaveText(["Mark sold", "Mark available", "Edit", "Delete"]);
  expect((await petNow(api, pet.id))?.status).toBe("pending");

  await group.getByRole("button", { name: "Mark sold" }).click();
  await expect(statusMessage(page)).toContainText(`Marked ${pet.name} sold.`);
  await expect(page.getByRole("definition").nth(3)).toHaveText("sold");
  // An admin session may return a sold pet.
  await expect(group.getByRole("button")).toHaveText(["Reserve", "Mark available", "Edit", "Delete"]);
  expect((await petNow(api, pet.id))?.status).toBe("sold");

  expect(patches.map((patch) => patch.body)).toEqual([
    [
      { op: "test", path: "/status", value: "available" },
      { op: "replace", path: "/status", value: "pending" },
    ],
    [
      { op: "test", path: "/status", value: "pending" },
      { op: "replace", path: "/status", value: "sold" },
    ],
  ]);
  expect(patches[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
  expect(patches[1]?.key).not.toBe(patches[0]?.key);

  await expect(historyEntries(page).nth(0)).toContainText(`Marked sold by ${E2E_KEY_NAME}`);
  await expect(historyEntries(page).nth(1)).toContainText(`Reserved by ${E2E_KEY_NAME}`);
  await expect(historyEntries(page).nth(0).locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
});

test("a write session sells a pet, and then has no way to return it", async ({ browser, api, pet }) => {
  const writeKey = await issueKey(api, "write");
  const { page, close } = await signedInPageInNewContext(browser, writeKey.secret);
  try {
    await openPet(page, pet);
    await changeGroup(page, pet.name).getByRole("button", { name: "Mark sold" }).click();
    await expect(statusMessage(page)).toContainText(`Marked ${pet.name} sold.`);
    await expect(changeGroup(page, pet.name).getByRole("button")).toHaveText(["Edit", "Delete"]);
    await expect(changeGroup(page, pet.name)).toContainText("Only an admin can return a sold pet.");
    await expect(historyEntries(page).first()).toContainText(`Marked sold by ${writeKey.key.name}`);
  } finally {
    await close();
  }
});

test("Edit corrects the name, category and status in one change, testing every field it showed", async ({
  signedInPage: page,
  api,
  pet,
}) => {
  await openPet(page, pet);
  await changeGroup(page, pet.name).getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("form", { name: `Edit ${pet.name}` });
  await expect(form.getByLabel("Name")).toBeFocused();
  // Category 1, named Dogs: the select shows it; no `Category ID` field for a named category.
  await expect(form.getByLabel("Category", { exact: true })).toHaveValue("1");
  await expect(form.getByLabel("Category ID")).toHaveCount(0);
  await expect(form.getByLabel("Status")).toHaveValue("available");

  const newName = `${pet.name} II`;
  await form.getByLabel("Name").fill(newName);
  await form.getByLabel("Category", { exact: true }).selectOption("Birds");
  await form.getByLabel("Status").selectOption("pending");
  const patch = page.waitForRequest((request) => request.method() === "PATCH");
  await form.getByRole("button", { name: "Save changes" }).click();
  expect((await patch).postDataJSON()).toEqual([
    { op: "test", path: "/name", value: pet.name },
    { op: "test", path: "/categoryId", value: 1 },
    { op: "test", path: "/status", value: "available" },
    { op: "replace", path: "/name", value: newName },
    { op: "replace", path: "/categoryId", value: 3 },
    { op: "replace", path: "/status", value: "pending" },
  ]);

  await expect(page.getByRole("heading", { name: newName, level: 1 })).toBeVisible();
  await expect(statusMessage(page)).toContainText(`Saved ${newName}.`);
  await expect(page.getByRole("definition")).toHaveText([String(pet.id), newName, "Birds", "pending"]);
  await expect(page.getByRole("button", { name: "Edit" })).toBeFocused();
  expect(await petNow(api, pet.id)).toEqual({ id: pet.id, name: newName, categoryId: 3, status: "pending" });
  await expect(historyEntries(page).first()).toContainText(
    `Renamed from ${pet.name} to ${newName}, moved from Dogs to Birds and reserved by ${E2E_KEY_NAME}`,
  );
});

test("a change from a second browser meets the first one's as a conflict: the values now, nothing overwritten, and Reload", async ({
  signedInPage: first,
  browser,
  api,
  pet,
}) => {
  const second = await signedInPageInNewContext(browser, E2E_API_KEY);
  try {
    // The second page has not heard of the first one's change yet (its live updates held back, as in the
    // moment before they arrive): its change must still not overwrite it.
    await second.page.route("**/v1/events/stream**", (route) => route.abort());
    await openPet(first, pet);
    await openPet(second.page, pet);

    await changeGroup(first, pet.name).getByRole("button", { name: "Mark sold" }).click();
    await expect(statusMessage(first)).toContainText(`Marked ${pet.name} sold.`);

    // The second page still shows the pet available: its Reserve tests that, and fails.
    await expect(second.page.getByRole("definition").nth(3)).toHaveText("available");
    await changeGroup(second.page, pet.name).getByRole("button", { name: "Reserve" }).click();
    const alert = second.page.getByRole("alert");
    await expect(alert).toContainText("Someone else changed this pet");
    await expect(alert).toContainText("nothing was overwritten");
    await expect(alert).toContainText(`It is now: name ${pet.name}, category 1, status sold.`);
    expect((await petNow(api, pet.id))?.status).toBe("sold");

    await alert.getByRole("button", { name: "Reload" }).click();
    await expect(alert).toHaveCount(0);
    await expect(second.page.getByRole("definition").nth(3)).toHaveText("sold");
    await expect(changeGroup(second.page, pet.name).getByRole("button")).toHaveText([
      "Reserve",
      "Mark available",
      "Edit",
      "Delete",
    ]);
  } finally {
    await second.close();
  }
});

test("an edit from a second browser that meets a rename keeps its form, and Reload starts it from the values now", async ({
  signedInPage: first,
  browser,
  api,
  pet,
}) => {
  const second = await signedInPageInNewContext(browser, E2E_API_KEY);
  try {
    await openPet(first, pet);
    await openPet(second.page, pet);
    await changeGroup(second.page, pet.name).getByRole("button", { name: "Edit" }).click();
    const form = second.page.getByRole("form", { name: `Edit ${pet.name}` });

    const renamed = `${pet.name} Senior`;
    await changeGroup(first, pet.name).getByRole("button", { name: "Edit" }).click();
    await first.getByLabel("Name").fill(renamed);
    await first.getByRole("button", { name: "Save changes" }).click();
    await expect(first.getByRole("heading", { name: renamed, level: 1 })).toBeVisible();

    await form.getByLabel("Category", { exact: true }).selectOption("Rabbits");
    await form.getByRole("button", { name: "Save changes" }).click();
    const alert = second.page.getByRole("alert");
    await expect(alert).toContainText(`It is now: name ${renamed}, category 1, status available.`);
    await expect(form.getByLabel("Category", { exact: true })).toHaveValue("4");
    expect(await petNow(api, pet.id)).toEqual({ ...pet, name: renamed });

    await alert.getByRole("button", { name: "Reload" }).click();
    await expect(second.page.getByRole("heading", { name: renamed, level: 1 })).toBeVisible();
    await expect(second.page.getByLabel("Name")).toHaveValue(renamed);
    await expect(second.page.getByLabel("Category", { exact: true })).toHaveValue("1");
  } finally {
    await second.close();
  }
});

test("Delete asks first; the list then says Deleted with Undo, which restores the pet", async ({
  signedInPage: page,
  api,
  pet,
}) => {
  await openPet(page, pet);
  await changeGroup(page, pet.name).getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete pet" });
  await expect(dialog).toContainText(pet.name);
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();

  await expect(page).toHaveURL(/\/pets$/);
  await expect(page.getByRole("heading", { name: "Pets", level: 1 })).toBeVisible();
  await expect(statusMessage(page)).toContainText(`Deleted ${pet.name}.`);
  expect(await petNow(api, pet.id)).toBeNull();

  await statusMessage(page).getByRole("button", { name: "Undo" }).click();
  await expect(statusMessage(page)).toContainText(`Restored ${pet.name}.`);
  await expect(statusMessage(page).getByRole("button", { name: "Undo" })).toHaveCount(0);
  expect(await petNow(api, pet.id)).toEqual(pet);

  await openPet(page, pet);
  await expect(historyEntries(page).nth(0)).toContainText(`Restored by ${E2E_KEY_NAME}`);
  await expect(historyEntries(page).nth(1)).toContainText(`Deleted by ${E2E_KEY_NAME}`);
});

test("Cancel and Escape leave the pet as it was, the focus back on Delete", async ({
  signedInPage: page,
  api,
  pet,
}) => {
  await openPet(page, pet);
  const deleteButton = changeGroup(page, pet.name).getByRole("button", { name: "Delete" });
  await deleteButton.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alertdialog", { name: "Delete pet" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(deleteButton).toBeFocused();
  expect(await petNow(api, pet.id)).toEqual(pet);
});
