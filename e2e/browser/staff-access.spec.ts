import { ApiKey, CreatedApiKey } from "@petstore/contract";
import type { Locator, Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config.js";
import { expect, runSuffix, signIn, test as base } from "./fixtures.js";

/** The configured e2e key, as the API names it (the first of API_KEYS). */
const ADMIN_HEADER = "Signed in as Configured key 1 (admin)";

/**
 * `keyName`: a name unique to this run, for a key the test creates.
 * `issuedKey`: a read key created through the API (the e2e key is admin), for
 * tests that need one to exist rather than to create it themselves.
 */
const test = base.extend<{ keyName: string; issuedKey: CreatedApiKey }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  keyName: async ({}, use) => {
    await use(`Front desk ${runSuffix()}`);
  },
  issuedKey: async ({ api, keyName }, use) => {
    const response = await api.post("/admin/v1/keys", { data: { name: keyName, scope: "read" } });
    expect(response.status()).toBe(201);
    await use(CreatedApiKey.parse(await response.json()));
  },
});

function keyRow(page: Page, name: string): Locator {
  return page
    .getByRole("table", { name: "Keys" })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name, exact: true }) });
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
}

test("an admin issues a read key, which signs in read-only; once revoked it is refused", async ({
  signedInPage: page,
  context,
  keyName,
}) => {
  await expect(page.getByText(ADMIN_HEADER)).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Keys" }).click();
  await expect(page.getByRole("heading", { name: "Keys", level: 1 })).toBeVisible();

  await page.getByLabel("Name").fill(keyName);
  await page.getByLabel("Scope").selectOption("read");
  await page.getByRole("button", { name: "Create key" }).click();
  const newKey = page.getByLabel("New key");
  await expect(newKey).toHaveValue(/^psk_[A-Za-z0-9_-]{43}$/);
  await expect(newKey).toBeFocused();
  await expect(newKey).toHaveAttribute("readonly", "");
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByRole("status")).toContainText(`Copied the key for ${keyName}.`);
  const secret = await page.evaluate(() => navigator.clipboard.readText());
  expect(secret).toBe(await newKey.inputValue());
  await expect(keyRow(page, keyName).getByRole("cell")).toContainText(["read", secret.slice(0, 12)]);
  await expect(keyRow(page, keyName).getByRole("cell").nth(6)).toHaveText("active");

  await signOut(page);
  await signIn(page, secret);
  await expect(page.getByText(`Signed in as ${keyName} (read)`)).toBeVisible();
  // Whoever signs in after a sign-out starts at the Overview, not on the page the last person left (Keys).
  await expect(page).toHaveURL(/:\d+\/$/);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  const navigation = page.getByRole("navigation", { name: "Main" });
  await expect(navigation.getByRole("link")).toHaveText(["Overview", "Pets"]);
  await page.goto("/pets/new");
  await expect(page.getByText("This key can only read pets.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Add pet" })).toHaveCount(0);
  await page.goto("/keys");
  await expect(page.getByText(/You need an admin key/)).toBeVisible();

  await signOut(page);
  await signIn(page, E2E_API_KEY);
  await expect(page.getByText(ADMIN_HEADER)).toBeVisible();
  await page.goto("/keys");
  await keyRow(page, keyName)
    .getByRole("button", { name: `Revoke ${keyName}` })
    .click();
  const dialog = page.getByRole("alertdialog", { name: `Revoke ${keyName}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(keyRow(page, keyName).getByRole("cell").nth(6)).toHaveText("revoked");
  await expect(page.getByRole("button", { name: `Revoke ${keyName}` })).toHaveCount(0);

  await signOut(page);
  await signIn(page, secret);
  await expect(page.getByRole("alert")).toContainText("refused");
  await expect(page).toHaveURL(/\/sign-in$/);
});

test("the Activity page shows who created and who revoked a key", async ({ signedInPage: page, api, issuedKey }) => {
  const revoked = await api.post(`/admin/v1/keys/${issuedKey.key.id}/revoke`);
  expect(revoked.status()).toBe(200);
  expect(ApiKey.parse(await revoked.json()).revokedAt).not.toBeNull();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Activity" }).click();
  await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
  const rows = page.getByRole("table", { name: "Activity" }).getByRole("row");
  // Each event is a sentence of who did what to what (apps/web/src/access/activity-words.ts).
  const revokedSentence = `Configured key 1 revoked the key ${issuedKey.key.name}`;
  const createdSentence = `Configured key 1 created the key ${issuedKey.key.name}`;
  // Newest first: the revocation, then the creation.
  const forThisKey = rows.filter({ hasText: `the key ${issuedKey.key.name}` });
  await expect(forThisKey.nth(0).getByRole("cell")).toHaveText([/.+/, revokedSentence]);
  await expect(forThisKey.nth(1).getByRole("cell")).toHaveText([/.+/, createdSentence]);

  // The filter's options are words; their values the API's codes, kept in the URL.
  await page.getByLabel("Action").selectOption({ label: "Key revoked" });
  await expect(page).toHaveURL(/\/activity\?action=key\.revoked$/);
  await expect(rows.filter({ hasText: `the key ${issuedKey.key.name}` }).getByRole("cell")).toHaveText([
    /.+/,
    revokedSentence,
  ]);
  await expect(
    page.getByRole("table", { name: "Activity" }).getByRole("cell", { name: / created the key / }),
  ).toHaveCount(0);
});

test("a key that is not admin sees neither Keys nor Activity", async ({ page, api, keyName }) => {
  const response = await api.post("/admin/v1/keys", { data: { name: keyName, scope: "write" } });
  const { secret } = CreatedApiKey.parse(await response.json());
  await page.goto("/activity");
  await signIn(page, secret);
  await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
  await expect(page.getByText(/You need an admin key/)).toBeVisible();
  await expect(page.getByText(`Signed in as ${keyName} (write)`)).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText([
    "Overview",
    "Pets",
    "New pet",
    "Import pets",
    "Recently deleted",
  ]);
});
