import { createPet, expect, petRows, runSuffix, statusMessage, test, wcagViolations } from "./fixtures.js";

test("sign-in, with and without a refused key, has no WCAG violations axe can find", async ({ page }) => {
  await page.goto("/sign-in");
  expect(await wcagViolations(page)).toEqual([]);
  await page.getByLabel("API key", { exact: true }).fill("not-the-key");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  expect(await wcagViolations(page)).toEqual([]);
});

// One test per viewport: eleven axe scans each, and a scan takes seconds on a busy 2-core machine.
for (const [device, viewport] of [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`the signed-in pages have no WCAG violations axe can find, on ${device}`, async ({ signedInPage: page }) => {
    test.setTimeout(210_000);
    await page.setViewportSize(viewport);
    await page.goto("/pets");
    await expect(petRows(page).first()).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);

    await page.goto("/pets/new");
    await page.getByRole("button", { name: "Add pet" }).click();
    await expect(page.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
    expect(await wcagViolations(page)).toEqual([]);

    await page.goto("/pets/import");
    await page.getByLabel("Pets as CSV").fill("name,categoryId,status\nRex,1,available\nNobody,0,\n");
    await page.getByRole("button", { name: "Check" }).click();
    await expect(page.getByRole("table", { name: "Checked rows" })).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);

    await page.goto("/pets/1");
    await expect(page.getByRole("heading", { name: "Rex" })).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);

    await page.goto("/pets/abc");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("not found");
    expect(await wcagViolations(page)).toEqual([]);

    // The admin pages: Keys with a new key's secret showing, its revoke dialog open, and Activity.
    const keyName = `Axe ${device} ${runSuffix()}`;
    await page.goto("/keys");
    await page.getByLabel("Name").fill(keyName);
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByLabel("New key")).toHaveValue(/^psk_/);
    expect(await wcagViolations(page)).toEqual([]);

    await page.getByRole("button", { name: `Revoke ${keyName}` }).click();
    await expect(page.getByRole("alertdialog", { name: `Revoke ${keyName}?` })).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("alertdialog")).toHaveCount(0);

    await page.goto("/activity");
    await expect(page.getByRole("table", { name: "Activity" })).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);

    // Webhooks with a new endpoint's secret showing, the endpoint's page with a delivery (to a port nobody
    // listens on: it fails, with its error in Answer), and its delete dialog open; then it is deleted.
    const endpointUrl = `http://127.0.0.1:9/axe-${device}-${runSuffix()}`;
    await page.goto("/webhooks");
    await page.getByLabel("Endpoint URL").fill(endpointUrl);
    await page.getByRole("checkbox", { name: "key.revoked", exact: true }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByLabel("Signing secret")).toHaveValue(/^whsec_/);
    await expect(page.getByRole("link", { name: endpointUrl, exact: true })).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);

    await page.getByRole("link", { name: endpointUrl, exact: true }).click();
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByRole("table", { name: "Deliveries" }).getByRole("button", { name: "Resend" })).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(page.getByRole("alertdialog", { name: "Delete this endpoint?" })).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page).toHaveURL(/\/webhooks$/);
  });
}

test("the list is usable from the keyboard alone, with a visible focus", async ({ signedInPage: page }) => {
  await page.goto("/pets");
  await expect(petRows(page).first()).toBeVisible();
  await page.keyboard.press("Tab");
  const skipLink = page.getByRole("link", { name: "Skip to content" });
  await expect(skipLink).toBeFocused();
  await expect(skipLink).toBeInViewport();

  const status = page.getByLabel("Status");
  await status.focus();
  const ring = await status.evaluate((element) => getComputedStyle(element).boxShadow);
  expect(ring).not.toBe("none");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Category", { exact: true })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Page size")).toBeFocused();
  // A session that may change pets has a selection checkbox before each row's link, and one for all.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("checkbox", { name: "Select all on this page" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("checkbox", { name: "Select Rex", exact: true })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Rex" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Rex", level: 1 })).toBeVisible();
  // The new page's content has the focus, not the link that has gone.
  await expect(page.getByRole("main")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Reserve" })).toBeFocused();
  await page.getByRole("link", { name: "Back to pets" }).focus();
  await expect(page.getByRole("link", { name: "Back to pets" })).toBeFocused();
});

// The changes beyond the spec, on pets of this test alone: the list with a selection and its dialog, the
// status message with Undo, a pet's page with its Edit form, its Delete dialog and a conflict, and
// Recently deleted.
for (const [device, viewport] of [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`the pet-change states have no WCAG violations axe can find, on ${device}`, async ({
    signedInPage: page,
    api,
  }) => {
    test.setTimeout(210_000);
    await page.setViewportSize(viewport);
    const run = `Axe ${device} ${runSuffix()}`;
    const first = await createPet(api, { name: `${run} A`, categoryId: 1, status: "available" });
    const second = await createPet(api, { name: `${run} B`, categoryId: 1 });

    await page.goto(`/pets?${new URLSearchParams({ name: run }).toString()}`);
    await expect(petRows(page)).toHaveCount(2);
    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await expect(page.getByRole("toolbar", { name: "Selected pets" })).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);

    await page.getByRole("toolbar", { name: "Selected pets" }).getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("alertdialog", { name: "Delete 2 pets" })).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(statusMessage(page).getByRole("button", { name: "Undo" })).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);

    await page.goto("/pets/deleted");
    await expect(
      page.getByRole("table", { name: "Recently deleted" }).getByRole("rowheader", { name: first.name }),
    ).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);
    for (const pet of [first, second])
      expect((await api.post(`/v1/deleted-pets/${pet.id}/restore`)).status()).toBe(200);

    await page.goto(`/pets/${first.id}`);
    await expect(page.getByRole("region", { name: "History" }).getByRole("listitem").first()).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Category", { exact: true }).selectOption("Other id…");
    await page.getByLabel("Category ID").fill("0");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByLabel("Category ID")).toHaveAttribute("aria-invalid", "true");
    expect(await wcagViolations(page)).toEqual([]);

    // Someone else sells the pet: the form's save meets a conflict.
    expect(
      (await api.patch(`/v1/pets/${first.id}`, { data: [{ op: "replace", path: "/status", value: "sold" }] })).status(),
    ).toBe(200);
    await page.getByLabel("Category ID").fill("2");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("alert").getByRole("button", { name: "Reload" })).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Reload" }).click();
    await page.getByRole("button", { name: "Cancel" }).click();

    await page.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("alertdialog", { name: "Delete pet" })).toBeVisible();
    expect(await wcagViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
  });
}
