import type { Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config.js";
import { createPet, expect, runSuffix, signIn, test } from "./fixtures.js";

/** A phone: every page must fit it, tables scrolling inside their own boxes, never the page. */
const PHONE = { width: 390, height: 844 };

/** How far the page is wider than the window (0 or less: it fits). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test.use({ viewport: PHONE });

test("every page fits a 390 px phone: no page is wider than the window", async ({ page, api }) => {
  test.setTimeout(90_000);
  const pet = await createPet(api, { name: `Phone ${runSuffix()}`, categoryId: 1, status: "available" });
  const created = await api.post("/admin/v1/webhooks", {
    data: { url: `http://127.0.0.1:9/phone-${runSuffix()}`, description: "Phone check", eventTypes: ["pet.created"] },
  });
  expect(created.status()).toBe(201);
  const { webhook } = (await created.json()) as { webhook: { id: number } };

  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
  expect(await overflow(page), "/sign-in").toBeLessThanOrEqual(0);
  await signIn(page, E2E_API_KEY);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

  const routes: Array<[string, string]> = [
    ["/", "Overview"],
    ["/pets", "Pets"],
    ["/pets/new", "New pet"],
    ["/pets/import", "Import pets"],
    ["/pets/deleted", "Recently deleted"],
    [`/pets/${pet.id}`, pet.name],
    ["/categories", "Categories"],
    ["/keys", "Keys"],
    ["/activity", "Activity"],
    ["/webhooks", "Webhooks"],
    [`/webhooks/${webhook.id}`, "Webhook endpoint"],
    ["/staff", "Staff"],
    ["/no-such-page", "Page not found"],
  ];
  const wide: string[] = [];
  for (const [path, heading] of routes) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toContainText(heading);
    // Let the data arrive (no placeholder left): a table that fits empty may not fit full. The event stream
    // keeps the network busy for ever, so "network idle" would never come.
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    const by = await overflow(page);
    if (by > 0) wide.push(`${path}: ${by} px wider than the window`);
  }
  expect(wide).toEqual([]);
  expect((await api.delete(`/admin/v1/webhooks/${webhook.id}`)).status()).toBe(204);
});
