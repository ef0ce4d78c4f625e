import { Category, Inventory, type NewPet, type Pet, type PetStatus } from "@petstore/contract";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import {
  createPet,
  expect,
  issueKey,
  petCells,
  petNow,
  petRows,
  runSuffix,
  signedInPageInNewContext,
  statusMessage,
  test as base,
  VIEWPORTS,
  wcagViolations,
} from "./fixtures.js";

/**
 * "The store at a glance": the Overview, categories by name on the pets list and in the pet forms, the
 * list's total and its pages both ways, and the Categories page. The database is shared with the other
 * specs: every test names a category of its own (unique to the run) and counts only that category's pets.
 */

/**
 * An id for a category of this run: one no pet carries and no category names (a billion ids to pick from).
 * Given, not left to the API: its next id is above every pet's `categoryId`, and another spec adds a pet
 * with the largest id there is, which leaves none above it.
 */
function unusedCategoryId(): number {
  return 1_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
}

/** A category named through the API (the e2e key is admin). */
async function createCategory(api: APIRequestContext, name: string): Promise<Category> {
  const response = await api.post("/v1/categories", { data: { name, id: unusedCategoryId() } });
  expect(response.status()).toBe(201);
  return Category.parse(await response.json());
}

async function inventoryNow(api: APIRequestContext): Promise<Inventory> {
  const response = await api.get("/v1/store/inventory");
  expect(response.status()).toBe(200);
  return Inventory.parse(await response.json());
}

/** `category`: a category of this test alone, named `<prefix> <run>`, with no pets yet. */
const test = base.extend<{ category: Category }>({
  category: async ({ api }, use) => {
    await use(await createCategory(api, `Glance ${runSuffix()}`));
  },
});

/** Pets of `category`: `counts` of each status (`none`: without one), named after it. */
async function addPets(
  api: APIRequestContext,
  category: Category,
  counts: Partial<Record<PetStatus | "none", number>>,
): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (const [status, count] of Object.entries(counts) as Array<[PetStatus | "none", number]>) {
    for (let index = 0; index < count; index++) {
      const pet: NewPet = {
        name: `${category.name} ${status} ${index + 1}`,
        categoryId: category.id,
        ...(status === "none" ? {} : { status }),
      };
      pets.push(await createPet(api, pet));
    }
  }
  return pets;
}

function tableRow(table: Locator, header: string): Locator {
  return table.getByRole("row").filter({ has: table.page().getByRole("rowheader", { name: header, exact: true }) });
}

/** The page is no wider than the window: tables may scroll inside their own boxes, never the page. */
async function expectNoPageOverflow(page: Page): Promise<void> {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
}

test("the Overview opens after sign-in: pets by status as labelled bars and in a table, and by category", async ({
  signedInPage: page,
  api,
  category,
}) => {
  await expect(page).toHaveURL(/:\d+\/$/);
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview", exact: true }),
  ).toHaveAttribute("aria-current", "page");
  await addPets(api, category, { available: 3, pending: 2, sold: 1, none: 1 });
  // Read again after the pets above: the figures are exact when read, and no other spec runs meanwhile.
  await page.reload();
  const inventory = await inventoryNow(api);
  const figures = [
    inventory.byStatus.available,
    inventory.byStatus.pending,
    inventory.byStatus.sold,
    inventory.byStatus.none,
  ].map((count) => count.toLocaleString("en"));

  // Every bar is labelled with its number and its status.
  const byStatus = page.getByRole("region", { name: "Pets by status" });
  const bars = byStatus.locator("svg g");
  await expect(bars).toHaveCount(4);
  const labels = ["Available", "Pending", "Sold", "No status"];
  for (const [index, label] of labels.entries()) {
    await expect(bars.nth(index).locator("text")).toHaveText([figures[index]!, label]);
  }
  // The same figures in a table, for screen readers and for following: each count opens the pets it counts.
  const statusTable = page.getByRole("table", { name: "Pets by status" });
  for (const [index, label] of labels.entries()) {
    await expect(tableRow(statusTable, label).getByRole("cell")).toHaveText([figures[index]!]);
  }
  await expect(tableRow(statusTable, "All").getByRole("cell")).toHaveText([inventory.total.toLocaleString("en")]);
  await expect(statusTable.getByRole("link", { name: `${figures[2]} sold`, exact: true })).toHaveAttribute(
    "href",
    "/pets?status=sold",
  );

  // This test's category: its own row, its counts exact.
  const categoryTable = page.getByRole("table", { name: "Pets by category" });
  await expect(categoryTable.getByRole("columnheader")).toHaveText([
    "Category",
    "Available",
    "Pending",
    "Sold",
    "No status",
    "Total",
  ]);
  const row = tableRow(categoryTable, category.name);
  await expect(row.getByRole("cell")).toHaveText(["3", "2", "1", "1", "7"]);
  await expect(row.getByRole("link", { name: `3 available in ${category.name}` })).toHaveAttribute(
    "href",
    `/pets?categoryId=${category.id}&status=available`,
  );
  await expect(row.getByRole("link", { name: `7 pets in ${category.name}` })).toHaveAttribute(
    "href",
    `/pets?categoryId=${category.id}`,
  );
  // The list has no filter for pets without a status: that count is text, not a link.
  await expect(row.getByRole("link")).toHaveCount(4);
  // The seed's categories by name.
  await expect(tableRow(categoryTable, "Dogs")).toBeVisible();
});

test("a count on the Overview opens the list filtered by it: categories by name, the total, Previous page and Next page", async ({
  signedInPage: page,
  api,
  category,
}) => {
  const pets = await addPets(api, category, { available: 22, sold: 3 });
  await page.reload();
  await page
    .getByRole("table", { name: "Pets by category" })
    .getByRole("link", { name: `22 available in ${category.name}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/pets\\?categoryId=${category.id}&status=available$`));
  await expect(page.getByRole("heading", { name: "Pets", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Category", { exact: true })).toHaveValue(String(category.id));
  await expect(page.getByLabel("Status")).toHaveValue("available");
  await expect(page.getByText("22 pets", { exact: true })).toBeVisible();
  await expect(petRows(page)).toHaveCount(20);
  // Every row names the category; the seed's names show on the unfiltered list too.
  await expect(petRows(page).getByRole("cell", { name: category.name, exact: true })).toHaveCount(20);

  // The first page has no page before it.
  await expect(page.getByRole("link", { name: "Previous page" })).toHaveCount(0);
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]after=${pets[19]!.id}(&|$)`));
  await expect(petRows(page)).toHaveCount(2);
  await expect(page.getByText("22 pets", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Next page" })).toHaveCount(0);

  await page.getByRole("link", { name: "Previous page" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]before=${pets[20]!.id}(&|$)`));
  await expect(page).toHaveURL(new RegExp(`[?&]categoryId=${category.id}(&|$)`));
  await expect(petRows(page)).toHaveCount(20);
  await expect(petCells(petRows(page).first()).first()).toHaveText(String(pets[0]!.id));
  // Back on the first page: nothing before it.
  await expect(page.getByRole("link", { name: "Previous page" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Next page" })).toBeVisible();

  // The Category select filters too, and `All` lifts the filter.
  await page.getByLabel("Status").selectOption("sold");
  await expect(page.getByText("3 pets", { exact: true })).toBeVisible();
  await page.getByLabel("Category", { exact: true }).selectOption("All");
  await expect(page).not.toHaveURL(/categoryId=/);
  await page.getByLabel("Status").selectOption("All");
  await page.getByLabel("Category", { exact: true }).selectOption("Dogs");
  await expect(page).toHaveURL(/[?&]categoryId=1(&|$)/);
  await expect(petRows(page).first().getByRole("cell", { name: "Dogs", exact: true })).toBeVisible();
});

test("New pet and Edit pick the category by name; Other id… reveals Category ID; adding a pet opens the last page, its row marked New", async ({
  signedInPage: page,
  api,
  category,
}) => {
  const run = runSuffix();
  // An id nobody named (below the range of this spec's categories' ids).
  const strayId = 500_000 + Math.floor(Math.random() * 400_000);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New pet" }).click();
  const categorySelect = page.getByLabel("Category", { exact: true });
  await expect(categorySelect.getByRole("option")).toContainText([
    "Choose a category",
    "Birds",
    "Cats",
    "Dogs",
    "Fish",
    "Rabbits",
  ]);
  await expect(categorySelect.getByRole("option").last()).toHaveText("Other id…");
  await expect(page.getByLabel("Category ID")).toHaveCount(0);

  // An id no category names.
  const strayName = `Stray ${run}`;
  await page.getByLabel("Name", { exact: true }).fill(strayName);
  await categorySelect.selectOption("Other id…");
  await expect(page.getByLabel("Category ID")).toBeVisible();
  await page.getByLabel("Category ID").fill(String(strayId));
  const created = page.waitForResponse(
    (response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/v1/pets",
  );
  await page.getByRole("button", { name: "Add pet" }).click();
  const stray = (await (await created).json()) as Pet;
  expect(stray.categoryId).toBe(strayId);

  // The list's last page, which ends with the new pet, marked New.
  await expect(statusMessage(page)).toContainText(`Added ${strayName} (id ${stray.id}).`);
  await expect(page).toHaveURL(new RegExp(`/pets\\?limit=20&before=${stray.id + 1}$`));
  const strayRow = petRows(page).last();
  await expect(strayRow.getByRole("rowheader").getByRole("link")).toHaveText(strayName);
  await expect(strayRow.getByText("New", { exact: true })).toBeVisible();
  await expect(petCells(strayRow)).toHaveText([String(stray.id), `Category ${strayId}`, "no status"]);
  await expect(page.getByRole("link", { name: "Next page" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Previous page" })).toBeVisible();

  // A category chosen by its name.
  const namedName = `Named ${run}`;
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New pet" }).click();
  // The form, not the list's "Search by name" (a late render, a live update, can hold the list a moment).
  await expect(page.getByRole("heading", { name: "New pet", level: 1 })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(namedName);
  await page.getByLabel("Category", { exact: true }).selectOption(category.name);
  await page.getByLabel("Status").selectOption("available");
  await page.getByRole("button", { name: "Add pet" }).click();
  await expect(statusMessage(page)).toContainText(`Added ${namedName}`);
  const namedRow = petRows(page).filter({ has: page.getByRole("link", { name: namedName, exact: true }) });
  await expect(namedRow.getByText("New", { exact: true })).toBeVisible();
  await expect(petCells(namedRow).nth(1)).toHaveText(category.name);
  await expect(petRows(page).last()).toContainText(namedName);

  // Edit of a pet whose id no category names: `Other id…`, with the id in Category ID.
  await page.goto(`/pets/${stray.id}`);
  await expect(page.getByRole("definition").nth(2)).toHaveText(`Category ${strayId}`);
  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("form", { name: `Edit ${strayName}` });
  await expect(form.getByLabel("Category", { exact: true })).toHaveValue("other");
  await expect(form.getByLabel("Category ID")).toHaveValue(String(strayId));
  // Choosing a named category hides the id field; the pet moves to it.
  await form.getByLabel("Category", { exact: true }).selectOption(category.name);
  await expect(form.getByLabel("Category ID")).toHaveCount(0);
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(statusMessage(page)).toContainText(`Saved ${strayName}.`);
  await expect(page.getByRole("definition").nth(2)).toHaveText(category.name);
  expect((await petNow(api, stray.id))?.categoryId).toBe(category.id);
  await expect(page.getByRole("region", { name: "History" }).getByRole("listitem").first()).toContainText(
    `Moved from Category ${strayId} to ${category.name} by Configured key 1`,
  );
});

test("Categories: an admin adds one, renames it, and a name taken is refused with the API's message", async ({
  signedInPage: page,
  api,
}) => {
  const run = runSuffix();
  const name = `Reptiles ${run}`;
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Categories", exact: true }).click();
  await expect(page).toHaveURL(/\/categories$/);
  await expect(page.getByRole("heading", { name: "Categories", level: 1 })).toBeVisible();
  const table = page.getByRole("table", { name: "Categories" });
  await expect(table.getByRole("columnheader")).toHaveText(["Name", "ID", "Pets", "Actions"]);
  await expect(tableRow(table, "Dogs").getByRole("cell").first()).toHaveText("1");

  const form = page.getByRole("form", { name: "Add category" });
  const id = unusedCategoryId();
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("ID", { exact: true }).fill(String(id));
  await form.getByRole("button", { name: "Add category" }).click();
  await expect(statusMessage(page)).toContainText(`Added the category ${name} (id ${id}).`);
  const added = (await (await api.get("/v1/categories")).json()) as Category[];
  const category = added.find((candidate) => candidate.name === name)!;
  expect(category).toEqual({ id, name });
  const row = tableRow(table, name);
  await expect(row.getByRole("cell")).toHaveText([String(category.id), "0", "Rename"]);
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue("");
  await expect(form.getByLabel("ID", { exact: true })).toHaveValue("");

  // Pets counted per category (getInventory).
  await createPet(api, { name: `${name} pet`, categoryId: category.id, status: "available" });
  await page.reload();
  await expect(row.getByRole("link", { name: `1 pet in ${name}` })).toHaveAttribute(
    "href",
    `/pets?categoryId=${category.id}`,
  );

  // The same name again, in another case: the API's 409, in an alert.
  await form.getByLabel("Name", { exact: true }).fill(name.toUpperCase());
  await form.getByRole("button", { name: "Add category" }).click();
  await expect(form.getByRole("alert")).toHaveText(`The category was not added. A category is named ${name} already.`);

  // Renamed in its row.
  const renamed = `Lizards ${run}`;
  await row.getByRole("button", { name: `Rename ${name}` }).click();
  const rename = page.getByRole("form", { name: `Rename ${name}` });
  await expect(rename.getByLabel("New name")).toBeFocused();
  await rename.getByLabel("New name").fill(renamed);
  await rename.getByRole("button", { name: "Save name" }).click();
  await expect(statusMessage(page)).toContainText(`Renamed ${name} to ${renamed}.`);
  await expect(tableRow(table, renamed).getByRole("cell").first()).toHaveText(String(category.id));
  await expect(page.getByRole("button", { name: `Rename ${renamed}` })).toBeFocused();

  // To a name another category has: refused, with the API's message; the name stays.
  await page.getByRole("button", { name: `Rename ${renamed}` }).click();
  const again = page.getByRole("form", { name: `Rename ${renamed}` });
  await again.getByLabel("New name").fill("dogs");
  await again.getByRole("button", { name: "Save name" }).click();
  await expect(again.getByRole("alert")).toHaveText(`${renamed} was not renamed. A category is named Dogs already.`);
  await again.getByRole("button", { name: "Cancel" }).click();
  await expect(tableRow(table, renamed)).toBeVisible();
  const stored = (await (await api.get("/v1/categories")).json()) as Category[];
  expect(stored.find((candidate) => candidate.id === category.id)?.name).toBe(renamed);

  // The list and the Overview use the new name.
  await page.goto(`/pets?categoryId=${category.id}`);
  await expect(petRows(page).first().getByRole("cell", { name: renamed, exact: true })).toBeVisible();
});

test("a key that is not admin has no Categories: not in the navigation, and the page says why", async ({
  browser,
  api,
}) => {
  const writeKey = await issueKey(api, "write");
  const { page, close } = await signedInPageInNewContext(browser, writeKey.secret);
  try {
    const navigation = page.getByRole("navigation", { name: "Main" });
    await expect(navigation.getByRole("link")).toHaveText([
      "Overview",
      "Pets",
      "New pet",
      "Import pets",
      "Recently deleted",
    ]);
    await page.goto("/categories");
    await expect(page.getByRole("heading", { name: "Categories", level: 1 })).toBeVisible();
    await expect(page.getByText(/You need an admin key/)).toBeVisible();
    await expect(page.getByRole("form", { name: "Add category" })).toHaveCount(0);
  } finally {
    await close();
  }
});

for (const [device, viewport] of VIEWPORTS) {
  test(`the Overview and Categories have no WCAG violations axe can find and fit the window, on ${device}`, async ({
    signedInPage: page,
    api,
    category,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await addPets(api, category, { available: 1, pending: 1, none: 1 });

    await page.goto("/");
    await expect(tableRow(page.getByRole("table", { name: "Pets by category" }), category.name)).toBeVisible();
    await expectNoPageOverflow(page);
    expect(await wcagViolations(page)).toEqual([]);

    await page.goto("/categories");
    const table = page.getByRole("table", { name: "Categories" });
    await expect(tableRow(table, category.name)).toBeVisible();
    await expectNoPageOverflow(page);
    expect(await wcagViolations(page)).toEqual([]);

    // A refusal in the form, and a row's rename form with its refusal.
    const form = page.getByRole("form", { name: "Add category" });
    await form.getByLabel("Name", { exact: true }).fill(category.name);
    await form.getByRole("button", { name: "Add category" }).click();
    await expect(form.getByRole("alert")).toBeVisible();
    await page.getByRole("button", { name: `Rename ${category.name}` }).click();
    const rename = page.getByRole("form", { name: `Rename ${category.name}` });
    await rename.getByLabel("New name").fill("Cats");
    await rename.getByRole("button", { name: "Save name" }).click();
    await expect(rename.getByRole("alert")).toBeVisible();
    await expectNoPageOverflow(page);
    expect(await wcagViolations(page)).toEqual([]);
  });
}
