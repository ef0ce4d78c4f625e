import type { Page } from "@playwright/test";
import { expect, petRows, test, wcagViolations } from "./fixtures.js";

/** The page's background, as painted: dark or light. */
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const isDark = (rgb: string) => {
  const [r = 255, g = 255, b = 255] = (rgb.match(/\d+/g) ?? []).map(Number);
  return (r + g + b) / 3 < 80;
};

test.describe("dark mode, as the system asks", () => {
  test.use({ colorScheme: "dark" });

  test("every kind of page is dark and has no WCAG violations axe can find (contrast included)", async ({
    page,
    signedInPage,
  }) => {
    test.setTimeout(150_000);
    void page;
    const pageOf = signedInPage;
    expect(isDark(await background(pageOf))).toBe(true);
    expect(await wcagViolations(pageOf)).toEqual([]);

    await pageOf.goto("/pets");
    await expect(petRows(pageOf).first()).toBeVisible();
    await pageOf.getByRole("checkbox", { name: "Select all on this page" }).check();
    await expect(pageOf.getByRole("toolbar", { name: "Selected pets" })).toBeVisible();
    expect(await wcagViolations(pageOf)).toEqual([]);

    await pageOf.goto("/pets/1");
    await expect(pageOf.getByRole("heading", { name: "Rex", level: 1 })).toBeVisible();
    expect(await wcagViolations(pageOf)).toEqual([]);

    await pageOf.goto("/pets/new");
    await pageOf.getByRole("button", { name: "Add pet" }).click();
    await expect(pageOf.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
    expect(await wcagViolations(pageOf)).toEqual([]);

    for (const [path, heading] of [
      ["/keys", "Keys"],
      ["/activity", "Activity"],
      ["/webhooks", "Webhooks"],
      ["/categories", "Categories"],
      ["/pets/deleted", "Recently deleted"],
    ] as const) {
      await pageOf.goto(path);
      await expect(pageOf.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
      await expect(pageOf.locator('[aria-busy="true"]')).toHaveCount(0);
      expect(await wcagViolations(pageOf), path).toEqual([]);
    }
  });

  test("the sign-in page is dark too, and clean", async ({ page }) => {
    await page.goto("/sign-in");
    await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
    expect(isDark(await background(page))).toBe(true);
    await page.getByLabel("API key", { exact: true }).fill("not-the-key");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("alert")).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);
  });
});

test.describe("the header's Dark mode switch", () => {
  test.use({ colorScheme: "light" });

  test("turns a light system's app dark, is remembered across a reload, and turns it back", async ({
    signedInPage: page,
  }) => {
    const toggle = page.getByRole("button", { name: "Dark mode" });
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    expect(isDark(await background(page))).toBe(false);
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    expect(isDark(await background(page))).toBe(true);
    await page.reload();
    await expect(page.getByRole("button", { name: "Dark mode" })).toHaveAttribute("aria-pressed", "true");
    expect(isDark(await background(page))).toBe(true);
    await page.getByRole("button", { name: "Dark mode" }).click();
    expect(isDark(await background(page))).toBe(false);
  });
});
