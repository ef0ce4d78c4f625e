import type { Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config.js";
import { arrangeEveryRoute, openRoute, settled } from "./every-route.js";
import { createPet, expect, runSuffix, signIn, test } from "./fixtures.js";
import { codesOnPage } from "./page-words.js";

/**
 * Words for people (issue 52): no page shows an operation id, an error code, an activity action's code
 * or a validator's message, on any route (every-route.ts) or in the states that show problems: a
 * refused sign-in, forms sent empty or wrong, an import checked with bad rows, a pet or an endpoint that
 * does not exist. Webhook event types stay on the Webhooks pages, for integrators.
 *
 * Three tests, each its own browser session: every full page load buys a session token, and a session
 * may buy TOKENS_PER_SESSION_PER_MIN (30) a minute.
 */

/** Collects what `page` shows that it should not, checked once at the test's end so one run lists every page. */
function scanner(page: Page) {
  const found: string[] = [];
  return {
    found,
    scan: async (label: string) => {
      await settled(page);
      found.push(...(await codesOnPage(page, label)));
    },
  };
}

async function signInAsAdmin(page: Page): Promise<void> {
  await page.goto("/sign-in");
  await signIn(page, E2E_API_KEY);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
}

test("no route shows a code, an operation id or a validator's message", async ({ page, api }) => {
  test.setTimeout(90_000);
  const { routes, cleanUp } = await arrangeEveryRoute(api);
  const { found, scan } = scanner(page);
  await signInAsAdmin(page);
  for (const route of routes) {
    await openRoute(page, route);
    await scan(route.path);
  }
  expect(found).toEqual([]);
  await cleanUp();
});

test("what went wrong is said in words: a refused key, what is not found, an import's bad rows", async ({
  page,
  api,
}) => {
  test.setTimeout(90_000);
  const { found, scan } = scanner(page);
  await page.goto("/sign-in");
  await signIn(page, "not-a-key-of-this-store-0123456789abcdef");
  await expect(page.getByRole("alert")).toBeVisible();
  await scan("/sign-in, a refused key");
  await signIn(page, E2E_API_KEY);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

  // Not found: a pet's id that is no pet, one that is no id, an endpoint that does not exist.
  for (const path of ["/pets/999999999", "/pets/not-an-id", "/webhooks/999999999"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toContainText("not found");
    await scan(path);
  }
  // A deleted pet's page; the pets list asked for a status, a size and a page that are none.
  const gone = await createPet(api, { name: `Words gone ${runSuffix()}`, categoryId: 2 });
  expect((await api.delete(`/v1/pets/${gone.id}`)).status()).toBe(204);
  await page.goto(`/pets/${gone.id}`);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await scan(`/pets/${gone.id}, a deleted pet`);
  await page.goto("/pets?status=adopted&limit=7&after=x");
  await expect(page.getByRole("heading", { name: "Pets", level: 1 })).toBeVisible();
  await scan("/pets, a filter that is none");

  // An import checked with bad rows: every problem is said in words.
  await page.goto("/pets/import");
  await page
    .getByLabel("Pets as CSV", { exact: true })
    .fill(
      [
        "name,categoryId,status",
        ",1,available",
        "Rex,abc,available",
        "Tom,1,adopted",
        "Kit,-4,",
        `${"y".repeat(200)},2,sold`,
        "Odd,1,sold,extra",
      ].join("\n"),
    );
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(page.getByRole("table")).toBeVisible();
  await scan("/pets/import, checked with bad rows");
  expect(found).toEqual([]);
});

test("a form sent empty, or with what the contract or the API refuses, says so in words", async ({ page }) => {
  test.setTimeout(90_000);
  const { found, scan } = scanner(page);
  await signInAsAdmin(page);
  const forms: Array<[path: string, button: string, fields: Record<string, string>, state: string]> = [
    ["/pets/new", "Add pet", {}, "sent empty"],
    ["/pets/new", "Add pet", { Name: "x".repeat(200) }, "a name too long"],
    ["/keys", "Create key", {}, "sent empty"],
    ["/keys", "Create key", { Name: "Expired already", Expires: "2020-01-01" }, "an expiry in the past"],
    ["/staff", "Create invitation", {}, "sent empty"],
    ["/staff", "Create invitation", { Email: "not an email", Name: "Nobody" }, "an email that is none"],
    ["/categories", "Add category", {}, "sent empty"],
    ["/categories", "Add category", { Name: "Dogs" }, "a name taken"],
    ["/webhooks", "Add endpoint", {}, "sent empty"],
    ["/webhooks", "Add endpoint", { "Endpoint URL": "ftp://example.com/hook" }, "a URL that is not http"],
  ];
  for (const [path, button, fields, state] of forms) {
    await page.goto(path);
    await settled(page);
    for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole("button", { name: button, exact: true }).click();
    // What the form says comes from its own check (a field marked invalid), or from the API's answer (an alert).
    await expect(page.locator('[aria-invalid="true"], [role="alert"]').first()).toBeVisible();
    await scan(`${path}, ${state}`);
  }
  expect(found).toEqual([]);
});
