import type { Pet } from "@petstore/contract";
import type { Page, Request } from "@playwright/test";
import {
  createPet,
  expect,
  issueKey,
  petNow,
  petRows,
  runSuffix,
  signedInPageInNewContext,
  statusMessage,
  test as base,
} from "./fixtures.js";

/**
 * `pets`: three available pets of this test alone (named `Bulk <run> A..C`), and `run`, the name they
 * start with, so the list can show just them (`?name=`).
 */
const test = base.extend<{ run: string; pets: Pet[] }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  run: async ({}, use) => {
    await use(`Bulk ${runSuffix()}`);
  },
  pets: async ({ api, run }, use) => {
    const pets: Pet[] = [];
    for (const letter of ["A", "B", "C"])
      pets.push(await createPet(api, { name: `${run} ${letter}`, categoryId: 2, status: "available" }));
    await use(pets);
  },
});

async function showOnly(page: Page, run: string, count: number): Promise<void> {
  await page.goto(`/pets?${new URLSearchParams({ name: run }).toString()}`);
  await expect(petRows(page)).toHaveCount(count);
}

/** Every PATCH, DELETE and restore the page sends from now on. */
function recordChanges(page: Page): Array<{ method: string; url: string; key: string | null; body: unknown }> {
  const sent: Array<{ method: string; url: string; key: string | null; body: unknown }> = [];
  page.on("request", (request: Request) => {
    const url = new URL(request.url());
    if (request.method() === "GET" || !/^\/v1\/(pets|deleted-pets)\//.test(url.pathname)) return;
    sent.push({
      method: request.method(),
      url: url.pathname,
      key: request.headers()["idempotency-key"] ?? null,
      body: request.postDataJSON(),
    });
  });
  return sent;
}

test("Reserve from the list: one request per pet, each with its own key; a pet changed meanwhile is refused and named; Undo reverts the rest", async ({
  signedInPage: page,
  api,
  run,
  pets,
}) => {
  const [a, b, c] = pets as [Pet, Pet, Pet];
  // The list has not heard of the sale yet (its live updates held back, as in the moment before they
  // arrive): the bulk change must still not overwrite it.
  await page.route("**/v1/events/stream**", (route) => route.abort());
  await showOnly(page, run, 3);
  // Someone else sells C after the list showed it available.
  const sold = await api.patch(`/v1/pets/${c.id}`, { data: [{ op: "replace", path: "/status", value: "sold" }] });
  expect(sold.status()).toBe(200);

  const sent = recordChanges(page);
  await page.getByRole("checkbox", { name: "Select all on this page" }).check();
  const toolbar = page.getByRole("toolbar", { name: "Selected pets" });
  await expect(toolbar).toContainText("3 pets selected");
  await expect(toolbar.getByRole("button")).toHaveText(["Reserve", "Mark sold", "Mark available", "Delete"]);
  await toolbar.getByRole("button", { name: "Reserve" }).click();

  await expect(statusMessage(page)).toContainText("Reserved 2 of 3 pets.");
  await expect(statusMessage(page)).toContainText(`${c.name} was not changed: status is "sold", not "available"`);
  await expect(toolbar).toHaveCount(0);
  expect((await petNow(api, a.id))?.status).toBe("pending");
  expect((await petNow(api, b.id))?.status).toBe("pending");
  expect((await petNow(api, c.id))?.status).toBe("sold");

  expect(sent.map((request) => `${request.method} ${request.url}`).sort()).toEqual(
    pets.map((pet) => `PATCH /v1/pets/${pet.id}`).sort(),
  );
  expect(new Set(sent.map((request) => request.key)).size).toBe(3);
  for (const request of sent) {
    expect(request.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(request.body).toEqual([
      { op: "test", path: "/status", value: "available" },
      { op: "replace", path: "/status", value: "pending" },
    ]);
  }

  await statusMessage(page).getByRole("button", { name: "Undo" }).click();
  await expect(statusMessage(page)).toContainText("Undid the change to 2 pets.");
  expect((await petNow(api, a.id))?.status).toBe("available");
  expect((await petNow(api, b.id))?.status).toBe("available");
  expect((await petNow(api, c.id))?.status).toBe("sold");
});

test("Mark sold asks first; after a sale by a write session the message says only an admin can return them, with no Undo", async ({
  browser,
  api,
  run,
  pets,
}) => {
  const [a, b, c] = pets as [Pet, Pet, Pet];
  const writeKey = await issueKey(api, "write");
  const { page, close } = await signedInPageInNewContext(browser, writeKey.secret);
  try {
    await showOnly(page, run, 3);
    await page.getByRole("checkbox", { name: `Select ${a.name}`, exact: true }).check();
    await page.getByRole("checkbox", { name: `Select ${b.name}`, exact: true }).check();
    await page.getByRole("toolbar", { name: "Selected pets" }).getByRole("button", { name: "Mark sold" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Mark 2 pets sold" });
    await expect(dialog).toContainText(`${a.name} and ${b.name} will be marked sold.`);
    await dialog.getByRole("button", { name: "Mark sold" }).click();

    await expect(statusMessage(page)).toContainText("Marked 2 pets sold.");
    await expect(statusMessage(page)).toContainText("Only an admin can return a sold pet.");
    await expect(statusMessage(page).getByRole("button", { name: "Undo" })).toHaveCount(0);
    expect((await petNow(api, a.id))?.status).toBe("sold");
    expect((await petNow(api, b.id))?.status).toBe("sold");
    expect((await petNow(api, c.id))?.status).toBe("available");
  } finally {
    await close();
  }
});

test("Delete from the list, from the keyboard alone: asks first, deletes each pet, and Undo restores them", async ({
  signedInPage: page,
  api,
  run,
  pets,
}) => {
  const [a, b, c] = pets as [Pet, Pet, Pet];
  await showOnly(page, run, 3);
  const sent = recordChanges(page);

  await page.getByRole("checkbox", { name: `Select ${a.name}`, exact: true }).focus();
  await page.keyboard.press("Space");
  await page.getByRole("checkbox", { name: `Select ${c.name}`, exact: true }).focus();
  await page.keyboard.press("Space");
  const toolbar = page.getByRole("toolbar", { name: "Selected pets" });
  await expect(toolbar).toContainText("2 pets selected");

  // The toolbar is one Tab stop before the table; its arrow keys move between its buttons.
  await page.getByRole("checkbox", { name: "Select all on this page" }).focus();
  await page.keyboard.press("Shift+Tab");
  await expect(toolbar.getByRole("button", { name: "Reserve" })).toBeFocused();
  await page.keyboard.press("End");
  await expect(toolbar.getByRole("button", { name: "Delete" })).toBeFocused();
  await page.keyboard.press("Enter");

  const dialog = page.getByRole("alertdialog", { name: "Delete 2 pets" });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  // Tab stays inside the dialog.
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Delete" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Enter");

  await expect(statusMessage(page)).toContainText("Deleted 2 pets.");
  await expect(petRows(page)).toHaveCount(1);
  expect(await petNow(api, a.id)).toBeNull();
  expect(await petNow(api, c.id)).toBeNull();
  expect(await petNow(api, b.id)).toEqual(b);

  // The message has the focus: Tab reaches its Undo.
  await page.keyboard.press("Tab");
  await expect(statusMessage(page).getByRole("button", { name: "Undo" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(statusMessage(page)).toContainText("Restored 2 pets.");
  await expect(petRows(page)).toHaveCount(3);
  expect(await petNow(api, a.id)).toEqual(a);
  expect(await petNow(api, c.id)).toEqual(c);

  expect(sent.map((request) => `${request.method} ${request.url}`).sort()).toEqual(
    [
      `DELETE /v1/pets/${a.id}`,
      `DELETE /v1/pets/${c.id}`,
      `POST /v1/deleted-pets/${a.id}/restore`,
      `POST /v1/deleted-pets/${c.id}/restore`,
    ].sort(),
  );
  expect(new Set(sent.map((request) => request.key)).size).toBe(4);
});
