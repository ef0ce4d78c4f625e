import type { APIRequestContext, Page } from "@playwright/test";
import { createPet, expect, runSuffix } from "./fixtures.js";

/**
 * Every route of the admin app an admin key opens, with the start of its level-1 heading: the one list
 * the page checks walk (phone-width.spec.ts: every page fits a phone; page-words.spec.ts: no code or
 * validator text on a page), so they cannot drift apart. A route the app gains belongs here. `/account`
 * and `/invite` need a person with a passkey: passkeys/person-pages.spec.ts checks them.
 */
export interface Route {
  path: string;
  heading: string;
}

/**
 * Arranges what the routes show (a pet with a history, a deleted pet, a webhook endpoint) through the API and answers
 * the routes (and the page of the deleted pet); `cleanUp` removes the endpoint again.
 */
export async function arrangeEveryRoute(
  api: APIRequestContext,
): Promise<{ routes: Route[]; deletedPetPath: string; cleanUp: () => Promise<void> }> {
  const pet = await createPet(api, { name: `Every route ${runSuffix()}`, categoryId: 1, status: "available" });
  // A history entry beyond its creation, for the pet's page to show.
  expect(
    (await api.patch(`/v1/pets/${pet.id}`, { data: [{ op: "replace", path: "/status", value: "pending" }] })).status(),
  ).toBe(200);
  // A deleted pet, for Recently deleted to list.
  const gone = await createPet(api, { name: `Every route gone ${runSuffix()}`, categoryId: 2 });
  expect((await api.delete(`/v1/pets/${gone.id}`)).status()).toBe(204);
  const created = await api.post("/admin/v1/webhooks", {
    data: {
      url: `http://127.0.0.1:9/every-route-${runSuffix()}`,
      description: "Every route",
      eventTypes: ["pet.created"],
    },
  });
  expect(created.status()).toBe(201);
  const { webhook } = (await created.json()) as { webhook: { id: number } };
  const routes: Route[] = [
    { path: "/", heading: "Overview" },
    { path: "/pets", heading: "Pets" },
    { path: "/pets/new", heading: "New pet" },
    { path: "/pets/import", heading: "Import pets" },
    { path: "/pets/deleted", heading: "Recently deleted" },
    { path: `/pets/${pet.id}`, heading: pet.name },
    { path: "/categories", heading: "Categories" },
    { path: "/keys", heading: "Keys" },
    { path: "/activity", heading: "Activity" },
    { path: "/activity?action=staff.signed_in", heading: "Activity" },
    { path: "/webhooks", heading: "Webhooks" },
    { path: `/webhooks/${webhook.id}`, heading: "Webhook endpoint" },
    { path: "/staff", heading: "Staff" },
    { path: "/no-such-page", heading: "Page not found" },
  ];
  return {
    routes,
    deletedPetPath: `/pets/${gone.id}`,
    cleanUp: async () => {
      expect((await api.delete(`/admin/v1/webhooks/${webhook.id}`)).status()).toBe(204);
    },
  };
}

/**
 * Opens `path` and waits until its heading shows and its data has arrived (no `aria-busy` placeholder
 * left). The event stream keeps the network busy for ever, so "network idle" would never come.
 */
export async function openRoute(page: Page, { path, heading }: Route): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 }).first()).toContainText(heading);
  await settled(page);
}

/** Waits until no placeholder is left loading. */
export async function settled(page: Page): Promise<void> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** A phone: every page must fit it, tables scrolling inside their own boxes, never the page. */
export const PHONE = { width: 390, height: 844 };

/** How far the page is wider than the window (0 or less: it fits). */
export const overflow = (page: Page): Promise<number> =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
