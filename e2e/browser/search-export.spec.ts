import { readFileSync } from "node:fs";
import { Pet, type NewPet } from "@petstore/contract";
import type { Page } from "@playwright/test";
import { allPets, expect, petRows, runSuffix, test as signedInTest } from "./fixtures.js";

interface SearchFixtures {
  /** A prefix no other pet has: this test's pets all start with it. */
  token: string;
  /** Creates pets through the API, in order; returns them as stored. */
  addPets: (pets: NewPet[]) => Promise<Pet[]>;
}

const test = signedInTest.extend<SearchFixtures>({
  // Playwright reads a fixture's dependencies from its first parameter, so it must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  token: async ({}, use) => {
    await use(`Zq${runSuffix()}`);
  },
  addPets: async ({ api }, use) => {
    await use(async (pets) => {
      const stored: Pet[] = [];
      for (const pet of pets) {
        const response = await api.post("/v1/pets", { data: pet });
        expect(response.status()).toBe(201);
        stored.push(Pet.parse(await response.json()));
      }
      return stored;
    });
  },
});

const rowNames = (page: Page) => petRows(page).getByRole("rowheader");

test("Search by name: accents and case ignored, one request per pause, kept in the URL over a reload, combined with Status", async ({
  signedInPage: page,
  token,
  addPets,
}) => {
  await addPets([
    { name: `${token} Émile`, categoryId: 1, status: "available" },
    { name: `${token} émilie`, categoryId: 2, status: "sold" },
    { name: `${token} Rex`, categoryId: 3, status: "available" },
  ]);
  await page.goto("/pets");
  const searches: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/v1/pets" && url.searchParams.has("name")) searches.push(url.searchParams.get("name")!);
  });

  const search = page.getByRole("searchbox", { name: "Search by name" });
  await search.pressSequentially(`${token.toUpperCase()} EMI`, { delay: 20 });
  await expect(rowNames(page)).toHaveText([`${token} Émile`, `${token} émilie`]);
  // Typed a key every 20 ms: the searches wait for a pause, so far fewer than the keystrokes (one, unless the machine stalls).
  expect(searches.length).toBeLessThanOrEqual(3);
  expect(searches.at(-1)).toBe(`${token.toUpperCase()} EMI`);
  await expect(page).toHaveURL(new RegExp(`[?&]name=${token.toUpperCase()}\\+EMI(&|$)`));
  await expect(page).toHaveTitle(`Pets: name “${token.toUpperCase()} EMI” · Petstore admin`);

  await page.reload();
  await expect(search).toHaveValue(`${token.toUpperCase()} EMI`);
  await expect(rowNames(page)).toHaveText([`${token} Émile`, `${token} émilie`]);

  await page.getByLabel("Status").selectOption("sold");
  await expect(rowNames(page)).toHaveText([`${token} émilie`]);
  await expect(page).toHaveURL(/status=sold/);
  await expect(page).toHaveTitle(`Pets: name “${token.toUpperCase()} EMI”, sold · Petstore admin`);

  // Any word of the name, from its start: a later word finds the pet, the inside of a word does not.
  await page.getByLabel("Status").selectOption("");
  await search.fill(`${token} rex`);
  await search.press("Enter");
  await expect(rowNames(page)).toHaveText([`${token} Rex`]);
  await search.fill(token.slice(1));
  await search.press("Enter");
  await expect(petRows(page)).toHaveCount(0);
  await page.getByLabel("Status").selectOption("sold");

  await search.fill(`${token} nobody`);
  await search.press("Enter");
  await expect(page.getByText(`No sold pets have a name with a word starting with “${token} nobody”.`)).toBeVisible();
  await expect(petRows(page)).toHaveCount(0);
});

test("Export CSV: every page of the search, past a 429, as the exact file; importing it adds the same pets again", async ({
  signedInPage: page,
  api,
  token,
  addPets,
}) => {
  // 102 creates, an export of two pages with a second's wait, and an import of 102: more than the default 30 s on a busy machine.
  test.setTimeout(120_000);
  // Formula-like names, all sharing one prefix, more than one export page (100) of them.
  const prefix = `=${token}`;
  const special = await addPets([
    { name: `${prefix}+1`, categoryId: 1, status: "available" },
    { name: `${prefix} "Rex", Jr`, categoryId: 9007199254740991 },
    { name: `${prefix} Émile 🐕`, categoryId: 3, status: "sold" },
  ]);
  const filler = await addPets(
    Array.from({ length: 99 }, (_, i) => ({ name: `${prefix} ${i}`, categoryId: 2, status: "pending" as const })),
  );
  const exported = [...special, ...filler];

  // The first export page is refused once with a 429: the export waits its Retry-After and asks again.
  const exportRequests: Array<{ at: number; after: string | null }> = [];
  let refused = false;
  await page.route("**/v1/pets?*", async (route) => {
    const url = new URL(route.request().url());
    if (url.searchParams.get("limit") !== "100") return route.fallback();
    exportRequests.push({ at: Date.now(), after: url.searchParams.get("after") });
    if (!refused) {
      refused = true;
      return route.fulfill({
        status: 429,
        contentType: "application/json",
        headers: { "Retry-After": "1" },
        body: JSON.stringify({ code: "RATE_LIMITED", message: "Too many requests.", status: 429 }),
      });
    }
    return route.fallback();
  });

  await page.goto("/pets");
  await page.getByRole("searchbox", { name: "Search by name" }).fill(prefix);
  await page.getByRole("searchbox", { name: "Search by name" }).press("Enter");
  await expect(rowNames(page).first()).toHaveText(`${prefix}+1`);

  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`pets-${new Date().toISOString().slice(0, 10)}.csv`);
  await expect(page.getByRole("status").filter({ hasText: "Exported" })).toHaveText(
    `Exported 102 pets to ${download.suggestedFilename()}.`,
  );
  expect(exportRequests.map((request) => request.after)).toEqual([null, null, String(exported[99]!.id)]);
  expect(exportRequests[1]!.at - exportRequests[0]!.at).toBeGreaterThanOrEqual(900);

  const file = readFileSync(await download.path());
  expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [plus, rex, emile] = special as [Pet, Pet, Pet];
  const expectedText =
    "\uFEFFid,name,categoryId,status\r\n" +
    `${plus.id},'${prefix}+1,1,available\r\n` +
    `${rex.id},"'${prefix} ""Rex"", Jr",9007199254740991,\r\n` +
    `${emile.id},'${prefix} Émile 🐕,3,sold\r\n` +
    filler.map((pet, i) => `${pet.id},'${prefix} ${i},2,pending\r\n`).join("");
  expect(file.toString("utf8")).toBe(expectedText);

  // Import the file as exported: the same pets again, names included, under new ids.
  await page.getByRole("link", { name: "Import pets" }).click();
  await page.getByLabel("CSV file").setInputFiles(await download.path());
  await page.getByRole("button", { name: "Check" }).click();
  await page.getByRole("button", { name: "Import 102 pets" }).click();
  await expect(page.getByRole("status")).toContainText("Imported 102 pets.", { timeout: 60_000 });
  const stored = (await allPets(api)).filter((pet) => pet.name.startsWith(prefix));
  // The import sends several rows at once, so the new ids need not follow the file's order.
  const withoutIds = (pets: Pet[]) =>
    pets.map(({ id: _id, ...pet }) => pet).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const originalIds = new Set(exported.map((pet) => pet.id));
  const imported = stored.filter((pet) => !originalIds.has(pet.id));
  expect(withoutIds(imported)).toEqual(withoutIds(exported));
});

test("Cancel export stops the paging and saves no file", async ({ signedInPage: page, token, addPets }) => {
  await addPets([{ name: `${token} only`, categoryId: 1 }]);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const exportPages: string[] = [];
  // The first page claims a next one; the next one does not answer until the test ends.
  await page.route("**/v1/pets?*", async (route) => {
    const url = new URL(route.request().url());
    if (url.searchParams.get("limit") !== "100") return route.fallback();
    exportPages.push(url.search);
    if (!url.searchParams.has("after")) {
      const response = await route.fetch();
      return route.fulfill({
        response,
        headers: { ...response.headers(), link: `</v1/pets?limit=100&after=1>; rel="next"` },
      });
    }
    await held;
    return route.abort("failed").catch(() => {});
  });
  let downloads = 0;
  page.on("download", () => downloads++);

  await page.goto("/pets");
  await page.getByRole("button", { name: "Export CSV" }).click();
  await expect(page.getByRole("progressbar", { name: "Export progress" })).toBeVisible();
  await expect.poll(() => exportPages.length).toBe(2);
  await page.getByRole("button", { name: "Cancel export" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Export cancelled" })).toHaveText(
    "Export cancelled; no file was saved.",
  );
  await expect(page.getByRole("progressbar", { name: "Export progress" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Export CSV" })).toBeVisible();
  release();
  await page.waitForTimeout(300);
  expect(exportPages).toHaveLength(2);
  expect(downloads).toBe(0);
});
