import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WEBHOOK_EVENT_TYPES } from "@petstore/contract";
import type { Locator, Page } from "@playwright/test";
import { expect, runSuffix, test as base } from "./fixtures.js";

/** One POST the receiver got: its Standard Webhooks headers and raw body. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 (the e2e API allows http and private addresses), answering 200 to every POST. */
interface Receiver {
  url: string;
  received: Received[];
}

const test = base.extend<{ receiver: Receiver }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  receiver: async ({}, use) => {
    const received: Received[] = [];
    const server: Server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
        response.writeHead(200, { "Content-Type": "text/plain" }).end("got it");
      });
    });
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    const { port } = server.address() as AddressInfo;
    await use({ url: `http://127.0.0.1:${port}/hooks/${runSuffix()}`, received });
    await new Promise<void>((closed) => server.close(() => closed()));
  },
});

/** Whether `secret` made one of the `webhook-signature` header's signatures (Standard Webhooks: HMAC-SHA256 of id.timestamp.body). */
function signedWith(secret: string, { headers, body }: Received): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key)
    .update(`${String(headers["webhook-id"])}.${String(headers["webhook-timestamp"])}.${body}`)
    .digest("base64");
  return String(headers["webhook-signature"]).split(" ").includes(`v1,${expected}`);
}

function deliveryRows(page: Page): Locator {
  return page
    .getByRole("table", { name: "Deliveries" })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader") });
}

test("an admin adds an endpoint, sees its secret once, tests it, rotates the secret, disables and deletes it", async ({
  signedInPage: page,
  receiver,
}) => {
  test.setTimeout(60_000);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();

  const form = page.getByRole("form", { name: "Add endpoint" });
  await form.getByLabel("Endpoint URL").fill(receiver.url);
  await form.getByLabel("Description").fill("e2e receiver");
  await form.getByRole("checkbox", { name: "pet.created", exact: true }).check();
  await form.getByRole("button", { name: "Add endpoint" }).click();

  const secretField = page.getByLabel("Signing secret");
  await expect(secretField).toHaveValue(/^whsec_[A-Za-z0-9+/]{32}$/);
  await expect(secretField).toBeFocused();
  await expect(secretField).toHaveAttribute("readonly", "");
  await expect(page.getByText("It will not be shown again")).toBeVisible();
  const secret = await secretField.inputValue();

  const row = page
    .getByRole("table", { name: "Webhook endpoints" })
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: receiver.url, exact: true }) });
  await expect(row.getByRole("cell")).toHaveText(["pet.created", "Enabled", "None yet"]);

  // The secret is not shown again: not after a reload, nor on the endpoint's page.
  await page.reload();
  await expect(page.getByRole("table", { name: "Webhook endpoints" })).toBeVisible();
  await expect(page.getByLabel("Signing secret")).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);

  await row.getByRole("link", { name: receiver.url, exact: true }).click();
  await expect(page.getByRole("heading", { name: "Webhook endpoint", level: 1 })).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);
  await expect(page.getByText(`${secret.slice(0, 10)}…`)).toBeVisible();
  await expect(page.getByText("Nothing has been sent to this endpoint yet.", { exact: false })).toBeVisible();

  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(deliveryRows(page)).toHaveCount(1);
  const testDelivery = deliveryRows(page).first();
  await expect(testDelivery.getByRole("rowheader")).toContainText("webhook.test");
  // Pending at first, then read again until the sender's attempt is recorded.
  await expect(testDelivery.getByRole("cell")).toHaveText(["succeeded", "1", /.+/, /^HTTP 200got it$/, "Resend"], {
    timeout: 15_000,
  });

  // The receiver got it, signed with the secret shown once.
  expect(receiver.received).toHaveLength(1);
  const [got] = receiver.received;
  expect(JSON.parse(got!.body)).toMatchObject({ type: "webhook.test" });
  expect(signedWith(secret, got!)).toBe(true);

  await page.getByRole("button", { name: "Rotate secret" }).click();
  const rotatedField = page.getByLabel("Signing secret");
  await expect(rotatedField).toHaveValue(/^whsec_[A-Za-z0-9+/]{32}$/);
  await expect(rotatedField).toBeFocused();
  const rotated = await rotatedField.inputValue();
  expect(rotated).not.toBe(secret);
  await expect(page.getByText(`${rotated.slice(0, 10)}…`)).toBeVisible();

  // Resent after the rotation: signed with the new secret, and with the old one while they overlap.
  await testDelivery.getByRole("button", { name: "Resend" }).click();
  await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(2);
  expect(signedWith(rotated, receiver.received[1]!)).toBe(true);
  expect(signedWith(secret, receiver.received[1]!)).toBe(true);
  await expect(testDelivery.getByRole("cell").nth(1)).toHaveText("2", { timeout: 15_000 });

  const toggle = page.getByRole("button", { name: "Disable" });
  await toggle.click();
  await expect(page.getByRole("button", { name: "Enable" })).toBeFocused();
  await expect(page.getByRole("status")).toContainText("Disabled the endpoint");

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete this endpoint?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByRole("button", { name: "Delete endpoint" }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByRole("status")).toContainText(`Deleted the endpoint ${receiver.url}.`);
  await expect(page.getByRole("link", { name: receiver.url, exact: true })).toHaveCount(0);
});

test("the webhook pages work from the keyboard alone", async ({ signedInPage: page, receiver }) => {
  await page.goto("/webhooks");
  const url = page.getByLabel("Endpoint URL");
  await url.focus();
  await page.keyboard.type(receiver.url);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Description")).toBeFocused();
  await page.keyboard.press("Tab");
  const petCreated = page.getByRole("checkbox", { name: "pet.created", exact: true });
  await expect(petCreated).toBeFocused();
  await page.keyboard.press("Space");
  await expect(petCreated).toBeChecked();
  // Every event type the contract offers, in its order, each a stop of its own.
  for (const type of WEBHOOK_EVENT_TYPES.slice(WEBHOOK_EVENT_TYPES.indexOf("pet.created") + 1)) {
    await page.keyboard.press("Tab");
    await expect(page.getByRole("checkbox", { name: type, exact: true })).toBeFocused();
  }
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Add endpoint" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Signing secret")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Copy" })).toBeFocused();

  const link = page.getByRole("link", { name: receiver.url, exact: true });
  await link.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Webhook endpoint", level: 1 })).toBeVisible();
  await expect(page.getByRole("main")).toBeFocused();
  const send = page.getByRole("button", { name: "Send test event" });
  await send.focus();
  await page.keyboard.press("Enter");
  await expect(deliveryRows(page).getByRole("cell").first()).toHaveText("succeeded", { timeout: 15_000 });
  for (const name of ["Rotate secret", "Disable", "Delete"]) {
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name, exact: true })).toBeFocused();
  }
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog", { name: "Delete this endpoint?" });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Delete endpoint" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByRole("link", { name: receiver.url, exact: true })).toHaveCount(0);
});

test("Recover events sends what an endpoint missed while it was disabled, and says how many were queued", async ({
  signedInPage: page,
  receiver,
  api,
}) => {
  test.setTimeout(60_000);
  const created = await api.post("/admin/v1/webhooks", {
    data: { url: receiver.url, description: "e2e recovery", eventTypes: ["pet.created"] },
  });
  expect(created.status()).toBe(201);
  const { webhook } = (await created.json()) as { webhook: { id: number } };
  expect((await api.patch(`/admin/v1/webhooks/${webhook.id}`, { data: { enabled: false } })).status()).toBe(200);
  const name = `Missed ${runSuffix()}`;
  expect((await api.post("/v1/pets", { data: { name, categoryId: 1 } })).status()).toBe(201);
  // The senders look every 100 ms here (WEBHOOK_POLL_MS): let them pass the event by while the endpoint is
  // disabled (an event they reach after it is enabled again is simply delivered).
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect((await api.patch(`/admin/v1/webhooks/${webhook.id}`, { data: { enabled: true } })).status()).toBe(200);
  expect(receiver.received).toHaveLength(0);

  await page.goto(`/webhooks/${webhook.id}`);
  const form = page.getByRole("form", { name: "Recover events" });
  await expect(form.getByLabel("Since")).not.toHaveValue("");
  await form.getByRole("button", { name: "Recover events" }).click();
  await expect(page.getByRole("status")).toHaveText("Queued 1 event to be sent again.");
  await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
  const sent = JSON.parse(receiver.received[0]!.body) as { type: string; data: { name: string } };
  expect(sent).toMatchObject({ type: "pet.created", data: { name } });
  await expect(deliveryRows(page).getByRole("cell").first()).toHaveText("succeeded", { timeout: 15_000 });
  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete endpoint" }).click();
});
