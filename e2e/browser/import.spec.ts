import type { NewPet } from "@petstore/contract";
import { allPets, expect, runSuffix, test } from "./fixtures.js";

test("bulk import: Check flags bad rows, Import survives a flaky network, Retry failed rows adds no duplicates", async ({
  signedInPage: page,
  api,
}) => {
  const run = runSuffix();
  const valid = Array.from({ length: 8 }, (_, index) => `Import ${run} ${index + 1}`);
  // Its first attempt fails before reaching the API; the automatic retry gets through.
  const flaky = `Flaky ${run}`;
  // Its first attempt is saved but the answer is lost; then the network stays down until the test restores it.
  const unlucky = `Unlucky, ${run}`;
  const csv = [
    "name,categoryId,status",
    ...valid.map((name, index) => `${name},${index + 1},available`),
    `${flaky},2,pending`,
    `"${unlucky}",3,sold`,
    `Zero ${run},0,available`,
    `Adopted ${run},1,adopted`,
    "",
  ].join("\r\n");

  const attempts = new Map<string, (string | null)[]>();
  let networkDown = true;
  await page.route("**/v1/pets", async (route) => {
    const request = route.request();
    if (request.method() !== "POST") return route.fallback();
    const { name } = request.postDataJSON() as NewPet;
    const keys = attempts.get(name) ?? [];
    attempts.set(name, keys);
    keys.push(await request.headerValue("idempotency-key"));
    if (name === flaky && keys.length === 1) return route.abort("failed");
    if (name === unlucky && keys.length === 1) {
      await route.fetch();
      return route.abort("failed");
    }
    if (name === unlucky && networkDown) return route.abort("failed");
    return route.fallback();
  });

  await page.getByRole("link", { name: "Import pets" }).click();
  await expect(page.getByRole("heading", { name: "Import pets", level: 1 })).toBeVisible();
  await page.getByLabel("Pets as CSV").fill(csv);
  await page.getByRole("button", { name: "Check" }).click();

  // Every row is shown; the bad ones with the contract's error beside them. Nothing was sent.
  const table = page.getByRole("table", { name: "Checked rows" });
  await expect(table.getByRole("row")).toHaveCount(1 + 12);
  await expect(table.getByRole("row").filter({ hasText: `Zero ${run}` })).toContainText(
    "Category ID must be at least 1",
  );
  await expect(
    table
      .getByRole("row")
      .filter({ hasText: `Adopted ${run}` })
      .getByRole("cell")
      .last(),
  ).not.toHaveText("OK");
  await expect(table.getByRole("row").filter({ hasText: unlucky })).toContainText("OK");
  expect(attempts.size).toBe(0);

  await page.getByRole("button", { name: "Import 10 pets" }).click();
  await expect(page.getByRole("status")).toContainText("Imported 9 pets. 1 row was not imported.", { timeout: 30_000 });
  const progress = page.getByRole("progressbar", { name: "Import progress" });
  await expect(progress).toHaveAttribute("aria-valuemax", "10");
  await expect(progress).toHaveAttribute("aria-valuenow", "10");
  await expect(page.getByRole("region", { name: "Rows not imported" })).toContainText(unlucky);

  networkDown = false;
  await page.getByRole("button", { name: "Retry failed rows" }).click();
  await expect(page.getByRole("status")).toContainText("Imported 10 pets.", { timeout: 30_000 });
  await expect(page.getByRole("region", { name: "Rows not imported" })).toHaveCount(0);

  // Every attempt at a row carried that row's one key, and rows had keys of their own.
  const keyPerRow = [...attempts.values()].map((keys) => new Set(keys));
  for (const keys of keyPerRow) expect(keys.size).toBe(1);
  expect(new Set(keyPerRow.flatMap((keys) => [...keys])).size).toBe(10);
  expect(attempts.get(flaky)).toHaveLength(2);
  expect(attempts.get(unlucky)?.length).toBeGreaterThan(2);

  // The API holds each valid pet exactly once, and none of the bad rows.
  const stored = (await allPets(api)).filter((pet) => pet.name.includes(run));
  expect(stored.map((pet) => pet.name).sort()).toEqual([...valid, flaky, unlucky].sort());
});
