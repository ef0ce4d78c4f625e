import { expect, test } from "@playwright/test";
import { PASSKEY_APP_URL } from "../playwright.config.js";
import { addVirtualAuthenticator, asOperator, PASSKEY_API_URL, runSuffix } from "./virtual-authenticator.js";

/**
 * A person's whole way in, through the admin app's pages, with Chromium's virtual authenticator:
 * invited, `Create a passkey` on the Welcome page, `Sign out`, `Sign in with a passkey`. Names are
 * matched exactly: `Sign in` is a prefix of `Sign in with a passkey`, `Sign out` of `Sign out everywhere`.
 */
test("invite a person, create a passkey, sign out, and sign in again with it", async ({ page, request }) => {
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  const name = `Robin ${runSuffix()}`;
  const invited = await request.post(`${PASSKEY_API_URL}/admin/v1/staff`, {
    headers: asOperator,
    data: { email: `${name.replace(" ", ".").toLowerCase()}@example.com`, name, role: "write" },
  });
  expect(invited.status()).toBe(201);
  const { invitationUrl } = (await invited.json()) as { invitationUrl: string };
  expect(invitationUrl.startsWith(`${PASSKEY_APP_URL}/invite#`)).toBe(true);

  await page.goto(invitationUrl);
  await expect(page.getByRole("heading", { name: `Welcome, ${name}`, exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Create a passkey", exact: true }).click();
  const signedInAs = page.getByText(`Signed in as ${name} (write)`, { exact: true });
  await expect(signedInAs).toBeVisible();

  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" });
  // Nothing secret is kept by the page: the session is an HttpOnly cookie, the token in memory; the page
  // reads only that it signed in.
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([
    0,
    0,
    "petstore-signed-in=1",
  ]);

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("button", { name: "Sign in with a passkey", exact: true })).toBeVisible();
  await expect(signedInAs).toHaveCount(0);

  await page.getByRole("button", { name: "Sign in with a passkey", exact: true }).click();
  await expect(signedInAs).toBeVisible();
  const after = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);
});

test("Account: add a passkey on another device, remove the first; the new one signs in", async ({ page, request }) => {
  const first = await addVirtualAuthenticator(page);
  const name = `Kim ${runSuffix()}`;
  const invited = await request.post(`${PASSKEY_API_URL}/admin/v1/staff`, {
    headers: asOperator,
    data: { email: `${name.replace(" ", ".").toLowerCase()}@example.com`, name, role: "read" },
  });
  expect(invited.status()).toBe(201);
  await page.goto(((await invited.json()) as { invitationUrl: string }).invitationUrl);
  await page.getByRole("button", { name: "Create a passkey", exact: true }).click();
  const signedInAs = page.getByText(`Signed in as ${name} (read)`, { exact: true });
  await expect(signedInAs).toBeVisible();

  // The first device goes away; another one is at hand.
  await first.cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: first.authenticatorId });
  const second = await addVirtualAuthenticator(page);
  await page.goto("/account");
  const passkeys = page.getByRole("list", { name: "Your passkeys", exact: true });
  await expect(passkeys.getByRole("listitem")).toHaveCount(1);
  await page.getByRole("button", { name: "Add a passkey", exact: true }).click();
  await expect(passkeys.getByRole("listitem")).toHaveCount(2);
  expect(
    (await second.cdp.send("WebAuthn.getCredentials", { authenticatorId: second.authenticatorId })).credentials,
  ).toHaveLength(1);

  // Both were named after the browser; the second got "(2)", so each Remove button is told apart.
  const removeButtons = passkeys.getByRole("button", { name: /^Remove / });
  await expect(removeButtons).toHaveCount(2);
  const [firstName, secondName] = (
    await removeButtons.evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label") ?? ""))
  ).map((label) => label.slice("Remove ".length));
  expect(secondName).toBe(`${firstName} (2)`);
  await page.getByRole("button", { name: `Remove ${firstName}`, exact: true }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove passkey", exact: true }).click();
  await expect(passkeys.getByRole("listitem")).toHaveCount(1);

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByRole("button", { name: "Sign in with a passkey", exact: true }).click();
  await expect(signedInAs).toBeVisible();
});
