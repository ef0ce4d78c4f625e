import { expect, expectPetRow, petRows, petTable, test } from "./fixtures.js";

test("invalid input shows errors beside the fields and sends nothing", async ({ signedInPage: page }) => {
  const creates: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") creates.push(request.url());
  });

  await page.getByRole("link", { name: "New pet" }).click();
  await expect(page.getByRole("heading", { name: "New pet", level: 1 })).toBeVisible();
  await page.getByLabel("Name").fill("   ");
  // An id no category names: `Other id…` shows the field for it.
  await page.getByLabel("Category", { exact: true }).selectOption("Other id…");
  await page.getByLabel("Category ID").fill("0");
  await page.getByRole("button", { name: "Add pet" }).click();

  await expect(page.getByLabel("Name")).toHaveAccessibleDescription(/Name must not be empty/);
  await expect(page.getByLabel("Name")).toBeFocused();
  await expect(page.getByLabel("Category ID")).toHaveAccessibleDescription(/Category ID must be at least 1/);
  await page.getByLabel("Category ID").fill("1.5");
  await page.getByRole("button", { name: "Add pet" }).click();
  await expect(page.getByLabel("Category ID")).toHaveAccessibleDescription(/Category ID must be an integer/);

  expect(creates).toEqual([]);
  await expect(page).toHaveURL(/\/pets\/new$/);
});

test("a valid pet is added, announced and shown in the list without a reload", async ({ signedInPage: page, api }) => {
  const name = `Pixel ${Date.now()}`;
  // Any reload would reset this marker.
  await page.evaluate(() => Object.assign(window, { stillTheSameDocument: true }));

  await page.getByRole("link", { name: "New pet" }).click();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Category", { exact: true }).selectOption("Rabbits");
  await page.getByLabel("Status").selectOption("pending");
  const created = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: "Add pet" }).click();
  const pet = (await (await created).json()) as { id: number };

  await expect(page.getByRole("status")).toContainText(`Added ${name} (id ${pet.id}).`);
  const row = petRows(page).filter({ has: page.getByRole("rowheader", { name }) });
  await expectPetRow(row, { id: pet.id, name, category: "Rabbits", status: "pending" });
  await expect(row.getByText("New", { exact: true })).toBeVisible();
  expect(await page.evaluate(() => "stillTheSameDocument" in window)).toBe(true);

  // The API has it too, exactly as the form said.
  const stored = await (await api.get(`/v1/pets?after=${pet.id - 1}&limit=1`)).json();
  expect(stored).toEqual([{ id: pet.id, name, categoryId: 4, status: "pending" }]);

  // Leaving the list ends the status message; the table stays.
  await petTable(page).getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByRole("status")).toBeEmpty();
});
