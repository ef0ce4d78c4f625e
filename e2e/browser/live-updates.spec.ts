import { Inventory } from "@petstore/contract";
import type { Locator, Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config.js";
import { createPet, expect, petRows, petCells, runSuffix, signedInPageInNewContext, test } from "./fixtures.js";

/** Who the API names the e2e key (the changes here are made with it, through the API and the other browser). */
const BY = "Configured key 1";

/** Within this of another person's change, every screen that shows it says so (the event log's streams). */
const LIVE_MS = 2_000;

function liveUpdate(page: Page): Locator {
  return page.getByTestId("live-updates");
}

function tableRow(table: Locator, header: string): Locator {
  return table.getByRole("row").filter({ has: table.page().getByRole("rowheader", { name: header, exact: true }) });
}

test("two people: one marks a pet sold, renames it, adds one; the other's list, pet page and Overview show it within 2 s and say so", async ({
  signedInPage: watcher,
  browser,
  api,
}) => {
  const suffix = runSuffix();
  const pet = await createPet(api, { name: `Rex ${suffix}`, categoryId: 1, status: "available" });
  const changer = await signedInPageInNewContext(browser, E2E_API_KEY);
  try {
    // The list, filtered to this pet, with its row selected and the focus on its checkbox.
    await watcher.goto(`/pets?name=${encodeURIComponent(`Rex ${suffix}`)}`);
    await expect(petRows(watcher)).toHaveCount(1);
    const select = watcher.getByRole("checkbox", { name: `Select ${pet.name}` });
    await select.check();
    await expect(select).toBeFocused();

    await changer.page.goto(`/pets/${pet.id}`);
    await changer.page
      .getByRole("group", { name: `Change ${pet.name}` })
      .getByRole("button", { name: "Mark sold" })
      .click();
    await expect(changer.page.getByRole("status")).toContainText(`Marked ${pet.name} sold.`);
    await expect(liveUpdate(watcher)).toHaveText(`${pet.name} was marked sold by ${BY}.`, { timeout: LIVE_MS * 2 });
    await expect(petCells(petRows(watcher).first())).toHaveText([String(pet.id), "Dogs", "sold"], { timeout: LIVE_MS });
    await expect(select).toBeChecked();
    await expect(select).toBeFocused();

    // The pet's page: a rename elsewhere shows in its heading.
    await watcher.goto(`/pets/${pet.id}`);
    await expect(watcher.getByRole("heading", { name: pet.name, level: 1 })).toBeVisible();
    const renamed = `Max ${suffix}`;
    expect(
      (await api.patch(`/v1/pets/${pet.id}`, { data: [{ op: "replace", path: "/name", value: renamed }] })).status(),
    ).toBe(200);
    await expect(watcher.getByRole("heading", { name: renamed, level: 1 })).toBeVisible({ timeout: LIVE_MS });
    await expect(liveUpdate(watcher)).toHaveText(`${pet.name} was renamed ${renamed} by ${BY}.`);

    // The Overview: a pet added elsewhere counts at once.
    await watcher.goto("/");
    const statusTable = watcher.getByRole("table", { name: "Pets by status" });
    const total = async () => Inventory.parse(await (await api.get("/v1/store/inventory")).json()).total;
    await expect(tableRow(statusTable, "All").getByRole("cell")).toHaveText([(await total()).toLocaleString("en")]);
    await createPet(api, { name: `Ada ${suffix}`, categoryId: 2, status: "available" });
    await expect(tableRow(statusTable, "All").getByRole("cell")).toHaveText([(await total()).toLocaleString("en")], {
      timeout: LIVE_MS,
    });
    await expect(liveUpdate(watcher)).toHaveText(`Ada ${suffix} was added by ${BY}.`);
  } finally {
    await changer.close();
  }
});
