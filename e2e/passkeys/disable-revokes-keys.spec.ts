import { expect, test } from "@playwright/test";
import { wcagViolations } from "../browser/fixtures.js";
import { E2E_API_KEY } from "../playwright.config.js";
import { addVirtualAuthenticator, asOperator, PASSKEY_API_URL, runSuffix } from "./virtual-authenticator.js";

/**
 * Keys of a disabled person: an admin who signed in with a passkey creates a key on the Keys page; another
 * admin disables them from the Staff page, whose `Disable <name>` dialog lists that key with `Also revoke
 * their keys` checked. The key stops working, and the Keys table marks it as its creator's, who is disabled.
 */
test("disabling a person lists their keys with Also revoke their keys checked; the keys stop working and are marked", async ({
  page,
  browser,
  request,
}) => {
  await addVirtualAuthenticator(page);
  const name = `Dana ${runSuffix()}`;
  const invited = await request.post(`${PASSKEY_API_URL}/admin/v1/staff`, {
    headers: asOperator,
    data: { email: `${name.replace(" ", ".").toLowerCase()}@example.com`, name, role: "admin" },
  });
  expect(invited.status()).toBe(201);
  await page.goto(((await invited.json()) as { invitationUrl: string }).invitationUrl);
  await page.getByRole("button", { name: "Create a passkey", exact: true }).click();
  await expect(page.getByText(`Signed in as ${name} (admin)`, { exact: true })).toBeVisible();

  // Signed in as themselves, they issue a key.
  const keyName = `Till ${runSuffix()}`;
  await page.goto("/keys");
  await page.getByLabel("Name", { exact: true }).fill(keyName);
  await page.getByRole("button", { name: "Create key", exact: true }).click();
  const secret = await page.getByLabel("New key", { exact: true }).inputValue();
  expect(secret).toMatch(/^psk_/);
  expect(
    (await request.get(`${PASSKEY_API_URL}/v1/pets`, { headers: { Authorization: `Bearer ${secret}` } })).status(),
  ).toBe(200);

  // Another admin, in a browser of their own, with the operator's key.
  const theirs = await browser.newContext();
  const admin = await theirs.newPage();
  await admin.goto("/sign-in");
  await admin.getByLabel("API key", { exact: true }).fill(E2E_API_KEY);
  await admin.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(admin.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await admin.goto("/staff");
  await admin.getByRole("button", { name: `Disable ${name}`, exact: true }).click();
  const dialog = admin.getByRole("alertdialog", { name: `Disable ${name}?` });
  const listed = dialog.getByRole("list", { name: `Active keys ${name} made`, exact: true });
  await expect(listed.getByRole("listitem")).toHaveText([new RegExp(`^${keyName} \\(read, psk_`)]);
  const revokeToo = dialog.getByRole("checkbox", { name: "Also revoke their keys", exact: true });
  await expect(revokeToo).toBeChecked();
  expect(await wcagViolations(admin)).toEqual([]);
  await dialog.getByRole("button", { name: "Disable", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(admin.getByRole("status")).toContainText(`Disabled ${name} and revoked their keys.`);

  // The key is refused, and the Keys table says whose it was.
  expect(
    (await request.get(`${PASSKEY_API_URL}/v1/pets`, { headers: { Authorization: `Bearer ${secret}` } })).status(),
  ).toBe(401);
  await admin.goto("/keys");
  const row = admin
    .getByRole("table", { name: "Keys" })
    .getByRole("row")
    .filter({ has: admin.getByRole("rowheader", { name: keyName, exact: true }) });
  await expect(row.getByRole("cell").nth(6)).toHaveText("revokedCreator disabled");
  expect(await wcagViolations(admin)).toEqual([]);
  await theirs.close();
});
