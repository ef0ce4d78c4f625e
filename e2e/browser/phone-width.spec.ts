import { E2E_API_KEY } from "../playwright.config.js";
import { arrangeEveryRoute, openRoute, overflow, PHONE } from "./every-route.js";
import { expect, signIn, test } from "./fixtures.js";

test.use({ viewport: PHONE });

/** Every route (every-route.ts; `/account` and `/invite`: passkeys/person-pages.spec.ts) at a phone's width. */
test("every page fits a 390 px phone: no page is wider than the window", async ({ page, api }) => {
  test.setTimeout(90_000);
  const { routes, cleanUp } = await arrangeEveryRoute(api);

  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
  expect(await overflow(page), "/sign-in").toBeLessThanOrEqual(0);
  await signIn(page, E2E_API_KEY);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

  const wide: string[] = [];
  for (const route of routes) {
    // Once the data has arrived (no placeholder left): a table that fits empty may not fit full.
    await openRoute(page, route);
    const by = await overflow(page);
    if (by > 0) wide.push(`${route.path}: ${by} px wider than the window`);
  }
  expect(wide).toEqual([]);
  await cleanUp();
});
