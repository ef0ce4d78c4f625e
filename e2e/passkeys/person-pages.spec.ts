import { expect, test } from "@playwright/test";
import { overflow, PHONE, settled } from "../browser/every-route.js";
import { codesOnPage } from "../browser/page-words.js";
import { addVirtualAuthenticator, asOperator, PASSKEY_API_URL, runSuffix } from "./virtual-authenticator.js";

test.use({ viewport: PHONE });

/**
 * The pages only a person sees, which the browser project's route walks cannot open (they need a
 * passkey, so `localhost`): the invitation page (fresh, and once used), `Account`, and the person's sentences on `Activity`. Each fits a
 * 390 px phone and shows no code, operation id or validator message (browser/page-words.ts).
 */
test("the invitation page and Account fit a phone and speak in words", async ({ page, request }) => {
  await addVirtualAuthenticator(page);
  const name = `Noor ${runSuffix()}`;
  const invited = await request.post(`${PASSKEY_API_URL}/admin/v1/staff`, {
    headers: asOperator,
    data: { email: `${name.replace(" ", ".").toLowerCase()}@example.com`, name, role: "admin" },
  });
  expect(invited.status()).toBe(201);
  const { invitationUrl } = (await invited.json()) as { invitationUrl: string };

  const problems: string[] = [];
  const check = async (label: string) => {
    await settled(page);
    const by = await overflow(page);
    if (by > 0) problems.push(`${label}: ${by} px wider than the window`);
    problems.push(...(await codesOnPage(page, label)));
  };

  await page.goto(invitationUrl);
  await expect(page.getByRole("heading", { name: `Welcome, ${name}`, exact: true })).toBeVisible();
  await check("/invite");
  await page.getByRole("button", { name: "Create a passkey", exact: true }).click();
  await expect(page.getByText(`Signed in as ${name} (admin)`, { exact: true })).toBeVisible();

  await page.goto("/account");
  await expect(page.getByRole("list", { name: "Your passkeys", exact: true }).getByRole("listitem")).toHaveCount(1);
  await check("/account");

  // What the person did, in the Activity page's sentences (apps/web/src/access/activity-words.ts).
  await page.goto("/activity");
  const sentences = page
    .getByRole("table", { name: "Activity" })
    .getByRole("row")
    .filter({ hasText: name })
    .locator("td:nth-child(2)");
  await expect(sentences).toHaveText([
    `${name} signed in with a passkey`,
    `${name} added a passkey`,
    `Configured key 1 invited ${name} with the role admin`,
  ]);
  await check("/activity, a person's events");

  // The same link again: used.
  await page.goto(invitationUrl);
  await expect(page.getByText("This invitation has expired or was already used.")).toBeVisible();
  await check("/invite, used");

  expect(problems).toEqual([]);
});
