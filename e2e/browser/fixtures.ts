import { AxeBuilder } from "@axe-core/playwright";
import { CreatedApiKey, LIMIT_MAX, Pet, Pets, type NewPet, type Scope } from "@petstore/contract";
import { expect, type APIRequestContext, type Browser, type Locator, type Page } from "@playwright/test";
import { test as apiTest } from "../api/fixtures.js";
import { API_URL, E2E_API_KEY } from "../playwright.config.js";

export async function signIn(page: Page, apiKey: string): Promise<void> {
  await page.getByLabel("API key", { exact: true }).fill(apiKey);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * `signedInPage`: a page that has signed in through the form with the e2e key
 * and shows the Overview, where sign-in lands (tests of the pet list open `/pets`).
 * `api` (from the API project) talks to the same API directly, to arrange data or
 * check what the UI claims.
 */
export const test = apiTest.extend<{ signedInPage: Page }>({
  signedInPage: async ({ page }, use) => {
    await page.goto("/sign-in");
    await signIn(page, E2E_API_KEY);
    await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
    await use(page);
  },
});

export { expect };

export function petTable(page: Page): Locator {
  return page.getByRole("table", { name: "Pets" });
}

/** Data rows only: each has its pet's name as row header; the column header row has none. */
export function petRows(page: Page): Locator {
  return petTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader") });
}

/** The ids in the ID column, in table order. */
export async function shownPetIds(page: Page): Promise<number[]> {
  const ids: number[] = [];
  for (const row of await petRows(page).all()) {
    ids.push(Number(await petCells(row).first().textContent()));
  }
  return ids;
}

/**
 * A pet row's own cells: ID, Category, Status. A session that may change pets also has a cell with the
 * row's selection checkbox, first; it is left out.
 */
export function petCells(row: Locator): Locator {
  return row.getByRole("cell").filter({ hasNot: row.page().getByRole("checkbox") });
}

/**
 * Checks one row cell by cell, so "5" cannot pass for "51". `category` is what the Category column shows:
 * the category's name (the seed names ids 1-5 Dogs, Cats, Birds, Rabbits, Fish), or `Category <id>`.
 */
export async function expectPetRow(
  row: Locator,
  pet: { id: number; name: string; category: string; status: string },
): Promise<void> {
  // The name's link: a pet just added also says `New` in its row header.
  await expect(row.getByRole("rowheader").getByRole("link")).toHaveText(pet.name);
  await expect(petCells(row)).toHaveText([String(pet.id), pet.category, pet.status]);
}

/** Every pet the API holds, page by page, to check what the UI claims it saved. */
export async function allPets(api: APIRequestContext): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (let after = 0; ;) {
    const response = await api.get(`/v1/pets?limit=${LIMIT_MAX}&after=${after}`);
    expect(response.status()).toBe(200);
    const page = Pets.parse(await response.json());
    pets.push(...page);
    const last = page[page.length - 1];
    if (page.length < LIMIT_MAX || !last) return pets;
    after = last.id;
  }
}

/** A suffix that makes names unique to one run, so a spec never depends on what the database already holds. */
export function runSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** WCAG 2.1 A and AA rules axe can check automatically; a clean run is necessary, not sufficient. */
export async function wcagViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
}

/** The two widths every page is checked at. */
export const VIEWPORTS = [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
] as const;

/** A pet added through the API for one test (give it a name unique to the run: runSuffix). */
export async function createPet(api: APIRequestContext, pet: NewPet): Promise<Pet> {
  const response = await api.post("/v1/pets", { data: pet });
  expect(response.status()).toBe(201);
  return Pet.parse(await response.json());
}

/** The pet as the API has it now; null when it is not listed (deleted). */
export async function petNow(api: APIRequestContext, petId: number): Promise<Pet | null> {
  const response = await api.get(`/v1/pets?after=${petId - 1}&limit=1`);
  expect(response.status()).toBe(200);
  return Pets.parse(await response.json()).find((pet) => pet.id === petId) ?? null;
}

/** A key of `scope` issued through the API (the e2e key is admin), named for this run. */
export async function issueKey(api: APIRequestContext, scope: Scope): Promise<CreatedApiKey> {
  const response = await api.post("/admin/v1/keys", { data: { name: `E2E ${scope} ${runSuffix()}`, scope } });
  expect(response.status()).toBe(201);
  return CreatedApiKey.parse(await response.json());
}

/**
 * A page in a browser context of its own (its own cookies: a separate session), signed in with `apiKey`
 * and showing the Overview. Closed with its context when the test ends (`close`).
 */
export async function signedInPageInNewContext(
  browser: Browser,
  apiKey: string,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: API_URL, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await signIn(page, apiKey);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  return { page, close: () => context.close() };
}

/** The app's polite status region, where "Deleted Rex." and its Undo show. */
export function statusMessage(page: Page): Locator {
  return page.getByRole("status");
}
