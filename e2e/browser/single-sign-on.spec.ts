import { SESSION_COOKIE_NAME, Session, SessionToken, SIGN_IN_ERRORS } from "@petstore/contract";
import { expect, signInAtProvider, SSO_DISPLAY_NAME, test, type SsoServers } from "./sso-fixtures.js";
import type { Page } from "@playwright/test";

// Single sign-on in a real browser: the app at http://localhost:PORT (ADMIN_ORIGIN), a real OpenID
// provider on https://localhost under a throwaway authority, the whole redirect chain in Chromium:
// the flow cookie (SameSite=Lax) must come back with the provider's cross-site redirect, and the
// session cookie (__Host-, Secure, SameSite=Strict) must be kept on http://localhost.

const FLOW_COOKIE_NAME = "__Host-petstore-sso";

async function cookiesOf(page: Page, servers: SsoServers) {
  const cookies = await page.context().cookies(servers.appOrigin);
  return {
    session: cookies.find((cookie) => cookie.name === SESSION_COOKIE_NAME),
    flow: cookies.find((cookie) => cookie.name === FLOW_COOKIE_NAME),
  };
}

/** Who the browser's session is, asked as the app asks: a token with the cookie (same origin), then the session. */
async function whoIsSignedIn(page: Page): Promise<unknown> {
  return page.evaluate(async () => {
    const minted = await fetch("/admin/v1/session/token", { method: "POST" });
    if (minted.status !== 201) return { tokenStatus: minted.status };
    const { token } = (await minted.json()) as { token: string };
    return (await fetch("/admin/v1/session", { headers: { Authorization: `Bearer ${token}` } })).json();
  });
}

test.describe("single sign-on through the OpenID provider, in the browser", () => {
  test("the round trip signs a mapped person in: a Strict session cookie, the flow cookie gone, their role", async ({
    ssoPage: page,
    ssoServers,
  }) => {
    await page.goto("/admin/v1/sso/start");
    await signInAtProvider(page, ssoServers, "alice@example.test");
    await page.waitForURL((url) => url.origin === ssoServers.appOrigin && !url.pathname.startsWith("/admin/"));
    const { session, flow } = await cookiesOf(page, ssoServers);
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: "Strict", path: "/" });
    expect(flow).toBeUndefined();
    const who = Session.parse(await whoIsSignedIn(page));
    expect(who).toMatchObject({ keyId: null, name: "Alice Admin", scope: "admin" });
    // The token answered is a pst_ one, minted for this origin only.
    const token = await page.evaluate(async () => (await fetch("/admin/v1/session/token", { method: "POST" })).json());
    expect(SessionToken.parse(token).token).toMatch(/^pst_/);
  });

  test("a person whose groups map to no role comes back to the sign-in page with the no-role code, not signed in", async ({
    ssoPage: page,
    ssoServers,
  }) => {
    await page.goto("/admin/v1/sso/start");
    await signInAtProvider(page, ssoServers, "carol@example.test");
    await page.waitForURL(`${ssoServers.appOrigin}/sign-in?error=no-role`);
    const { session, flow } = await cookiesOf(page, ssoServers);
    expect(session).toBeUndefined();
    expect(flow).toBeUndefined();
    expect(await whoIsSignedIn(page)).toEqual({ tokenStatus: 401 });
  });

  // The sign-in page offers `Sign in with <OIDC_DISPLAY_NAME>` when GET /admin/v1/sign-in-options says
  // so, and shows the sentence of `?error=` (SIGN_IN_ERRORS).
  test("from the sign-in page, with a mapped role: lands signed in, the header names them", async ({
    ssoPage: page,
    ssoServers,
  }) => {
    await page.goto("/sign-in");
    await page.getByRole("link", { name: `Sign in with ${SSO_DISPLAY_NAME}`, exact: true }).click();
    await signInAtProvider(page, ssoServers, "bob@example.test");
    await expect(page.getByText("Signed in as Bob Frontdesk (write)", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  });

  test("from the sign-in page, with a refused one: the page says the account has no role", async ({
    ssoPage: page,
    ssoServers,
  }) => {
    await page.goto("/sign-in");
    await page.getByRole("link", { name: `Sign in with ${SSO_DISPLAY_NAME}`, exact: true }).click();
    await signInAtProvider(page, ssoServers, "carol@example.test");
    await expect(page).toHaveURL(/\/sign-in\?error=no-role$/);
    await expect(page.getByRole("alert")).toHaveText("Your account has no role in this store.");
    expect(SIGN_IN_ERRORS["no-role"]).toBe("Your account has no role in this store.");
  });
});
