import { E2E_API_KEY } from "../playwright.config.js";
import { expect, petRows, signIn, test } from "./fixtures.js";

test("a wrong key is refused and the page stays on sign-in", async ({ page }) => {
  await page.goto("/pets");
  await expect(page).toHaveURL(/\/sign-in$/);
  await signIn(page, "not-the-key");
  await expect(page.getByRole("alert")).toContainText("refused");
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
});

test("the right key is accepted and leads back to the page asked for", async ({ page }) => {
  await page.goto("/pets?status=sold&limit=50");
  await signIn(page, E2E_API_KEY);
  await expect(page.getByRole("heading", { name: "Pets", level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/pets\?status=sold&limit=50$/);
  await expect(petRows(page).first()).toBeVisible();
});

test("signing in with a key keeps nothing in storage, and survives a reload and a new tab", async ({
  signedInPage: page,
  context,
}) => {
  const stored = () => page.evaluate(() => ({ session: sessionStorage.length, local: localStorage.length }));
  expect(await stored()).toEqual({ session: 0, local: 0 });
  // The session is an HttpOnly cookie the page cannot read; beside it, "signed in" and nothing more.
  expect(await page.evaluate(() => document.cookie)).toBe("petstore-signed-in=1");
  const cookies = await context.cookies();
  expect(cookies.map((cookie) => [cookie.name, cookie.httpOnly, cookie.secure, cookie.sameSite]).sort()).toEqual([
    ["__Host-petstore-session", true, true, "Strict"],
    ["petstore-signed-in", false, true, "Strict"],
  ]);

  await page.reload();
  await expect(page.getByText("Signed in as Configured key 1 (admin)")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

  const tab = await context.newPage();
  await tab.goto("/pets/new");
  await expect(tab.getByRole("heading", { name: "New pet", level: 1 })).toBeVisible();
  await expect(tab.getByText("Signed in as Configured key 1 (admin)")).toBeVisible();
  expect(await tab.evaluate(() => sessionStorage.length + localStorage.length)).toBe(0);
  await tab.close();
});

test("a key revoked while its browser session is open returns to sign-in, with a reason, at the next action", async ({
  page,
  api,
}) => {
  const created = await api.post("/admin/v1/keys", { data: { name: `Revoked ${Date.now()}`, scope: "read" } });
  expect(created.status()).toBe(201);
  const { key, secret } = (await created.json()) as { key: { id: number }; secret: string };
  await page.goto("/sign-in");
  await signIn(page, secret);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await page.goto("/pets");
  // Everything the page asks for on arrival has been answered: the next request is the next action's.
  await expect(petRows(page).first()).toBeVisible();

  expect((await api.post(`/admin/v1/keys/${key.id}/revoke`, { data: {} })).status()).toBe(200);
  const revokedAt = Date.now();
  await page.getByLabel("Status").selectOption("sold");
  await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
  expect(Date.now() - revokedAt).toBeLessThan(2000);
  await expect(page.getByRole("alert")).toBeVisible();
});

test("signing out ends the session on the server, in every tab", async ({ signedInPage: page, context }) => {
  const other = await context.newPage();
  await other.goto("/pets");
  await expect(petRows(other).first()).toBeVisible();

  // The app leaves at once and tells the server beside it: the cookie goes when the server answers.
  const signedOut = page.waitForResponse(
    (response) => new URL(response.url()).pathname === "/admin/v1/session/sign-out",
  );
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "You have signed out." })).toBeVisible();
  expect((await signedOut).status()).toBe(204);
  expect(await context.cookies()).toEqual([]);

  // The other tab's token is refused at its next action, and so is a new one: back to sign-in.
  await other.getByLabel("Status").selectOption("sold");
  await expect(other.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
  await expect(other.getByRole("alert")).toBeVisible();
  await other.close();

  await page.goto("/pets");
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("every signed-in page offers Sign out", async ({ signedInPage: page }) => {
  for (const path of ["/pets", "/pets/new", "/pets/1", "/pets/999999999", "/no-such-page"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
  }
});

test("the app asks for a token once, not per request: every API call carries the same pst_ token", async ({
  signedInPage: page,
}) => {
  const tokenRequests: string[] = [];
  const bearers = new Set<string>();
  let apiCalls = 0;
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname === "/admin/v1/session/token") tokenRequests.push(request.method());
    else if (pathname.startsWith("/v1/") || pathname.startsWith("/admin/v1/")) {
      apiCalls++;
      bearers.add(request.headers()["authorization"] ?? "none");
    }
  });
  const navigation = page.getByRole("navigation", { name: "Main" });
  for (const [link, heading] of [
    ["Keys", "Keys"],
    ["Activity", "Activity"],
    ["Staff", "Staff"],
    ["Pets", "Pets"],
  ] as const) {
    await navigation.getByRole("link", { name: link, exact: true }).click();
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
  }
  await page.getByLabel("Status").selectOption("sold");
  await page.getByLabel("Status").selectOption("pending");
  await expect(page).toHaveURL(/status=pending/);
  await expect(page.getByRole("table", { name: "Pets" }).or(page.getByText(/No pets/))).toBeVisible();

  expect(apiCalls).toBeGreaterThanOrEqual(5);
  expect(tokenRequests).toEqual([]);
  expect(bearers.size).toBe(1);
  expect([...bearers][0]).toMatch(/^Bearer pst_[A-Za-z0-9_-]{43}$/);
});
