import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { delivery, ROTATED_SECRET, webhook, webhooksApi } from "../test/fake-webhooks-api.js";
import { errorResponse, renderApp, testSession } from "../test/render-app.js";

const ADMIN = testSession("admin", "Ops lead");
const URL_2 = "https://hooks.example.com/stock";

function deliveryRows() {
  return within(screen.getByRole("table", { name: "Deliveries" }))
    .getAllByRole("row")
    .slice(1);
}

const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole("cell")
    .map((cell) => cell.textContent);

describe("a webhook endpoint's page", () => {
  it("shows the endpoint and its deliveries: event, status, attempts, last attempt, answer, with Resend", async () => {
    const { handler } = webhooksApi(
      [webhook(2, URL_2, { eventTypes: ["pet.created", "key.created"], description: "Stock system" })],
      [
        delivery(7, 2, {
          eventType: "key.created",
          status: "failed",
          attempts: [
            {
              at: "2026-11-24T11:00:00.000Z",
              statusCode: null,
              error: "The connection was refused.",
              durationMs: 3,
              answer: "",
            },
            { at: "2026-11-24T11:05:00.000Z", statusCode: 500, error: null, durationMs: 40, answer: "Internal error" },
          ],
        }),
        delivery(6, 2),
      ],
    );
    const { user, requests } = renderApp("/webhooks/2", handler, { session: ADMIN });
    expect(await screen.findByRole("heading", { name: "Webhook endpoint", level: 1 })).toBeInTheDocument();
    expect(document.title).toBe(`Webhook ${URL_2} · Petstore admin`);
    expect(screen.getByText("pet.created, key.created")).toBeInTheDocument();
    expect(screen.getByText("Stock system")).toBeInTheDocument();

    const table = await screen.findByRole("table", { name: "Deliveries" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((header) => header.textContent),
    ).toEqual(["Event", "Status", "Attempts", "Last attempt", "Answer", "Actions"]);
    const [failed, succeeded] = deliveryRows();
    expect(within(failed!).getByRole("rowheader")).toHaveTextContent("key.created");
    expect(cellTexts(failed!).slice(0, 2)).toEqual(["failed", "2"]);
    expect(within(failed!).getAllByRole("time").at(-1)).toHaveAttribute("datetime", "2026-11-24T11:05:00.000Z");
    expect(cellTexts(failed!)[3]).toBe("HTTP 500Internal error");
    expect(cellTexts(succeeded!).slice(0, 2)).toEqual(["succeeded", "1"]);
    expect(cellTexts(succeeded!)[3]).toBe("HTTP 200ok");

    const resend = within(failed!).getByRole("button", { name: "Resend" });
    expect(resend).toHaveAccessibleDescription(expect.stringContaining("key.created"));
    await user.click(resend);
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Resending the key.created delivery."));
    const post = requests.find((request) => request.method === "POST");
    expect(new URL(post!.url).pathname).toBe("/admin/v1/webhooks/2/deliveries/7/resend");
  });

  it("sends a test event, whose pending delivery is read again until it is answered", async () => {
    const api = webhooksApi([webhook(2, URL_2)]);
    const { user } = renderApp("/webhooks/2", api.handler, { session: ADMIN });
    expect(await screen.findByText(/Nothing has been sent to this endpoint yet/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Send test event" }));
    expect(await screen.findByRole("table", { name: "Deliveries" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Sent a test event");
    expect(cellTexts(deliveryRows()[0]!).slice(0, 2)).toEqual(["pending", "0"]);
    expect(cellTexts(deliveryRows()[0]!)[3]).toBe("Not sent yet");

    // The sender answers it; the page reads the deliveries again by itself.
    api.deliveries[0] = delivery(api.deliveries[0]!.id, 2, { eventType: "webhook.test" });
    await waitFor(() => expect(cellTexts(deliveryRows()[0]!).slice(0, 2)).toEqual(["succeeded", "1"]), {
      timeout: 3000,
    });
  });

  it("rotates the secret and shows the new one once, with Copy", async () => {
    const { user, requests } = renderApp("/webhooks/2", webhooksApi([webhook(2, URL_2)]).handler, { session: ADMIN });
    await user.click(await screen.findByRole("button", { name: "Rotate secret" }));
    const secret = await screen.findByLabelText("Signing secret");
    expect(secret).toHaveValue(ROTATED_SECRET);
    expect(secret).toHaveAttribute("readonly");
    expect(secret).toHaveFocus();
    expect(secret).toHaveAccessibleDescription(expect.stringContaining("It will not be shown again"));
    expect(new URL(requests.find((request) => request.method === "POST")!.url).pathname).toBe(
      "/admin/v1/webhooks/2/rotate-secret",
    );
    await waitFor(() => expect(screen.getByText("whsec_BBBB…")).toBeInTheDocument());
    await user.click(screen.getByRole("button", { name: "Copy" }));
    expect(await navigator.clipboard.readText()).toBe(ROTATED_SECRET);
  });

  it("disables and enables the endpoint with the same button, which keeps the focus", async () => {
    const { user, requests } = renderApp("/webhooks/2", webhooksApi([webhook(2, URL_2)]).handler, { session: ADMIN });
    const toggle = await screen.findByRole("button", { name: "Disable" });
    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAccessibleName("Enable"));
    expect(toggle).toHaveFocus();
    expect(screen.getByText("Disabled")).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Disabled the endpoint");
    const patch = requests.find((request) => request.method === "PATCH");
    expect(await patch?.json()).toEqual({ enabled: false });

    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAccessibleName("Disable"));
    expect(screen.getByText("Enabled")).toBeInTheDocument();
  });

  it("deletes after an alertdialog confirms with Delete endpoint; Escape cancels", async () => {
    const api = webhooksApi([webhook(2, URL_2)]);
    const { user, location, requests } = renderApp("/webhooks/2", api.handler, { session: ADMIN });
    const remove = await screen.findByRole("button", { name: "Delete" });
    await user.click(remove);
    const dialog = screen.getByRole("alertdialog", { name: "Delete this endpoint?" });
    expect(dialog).toHaveAccessibleDescription(expect.stringContaining(URL_2));
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(remove).toHaveFocus();

    await user.click(remove);
    await user.click(screen.getByRole("button", { name: "Delete endpoint" }));
    await waitFor(() => expect(location.current).toBe("/webhooks"));
    expect(requests.find((request) => request.method === "DELETE")?.url).toMatch(/\/admin\/v1\/webhooks\/2$/);
    expect(await screen.findByText(/No webhook endpoints yet/)).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent(`Deleted the endpoint ${URL_2}.`);
  });

  it("follows the API's next link through the deliveries", async () => {
    const many = Array.from({ length: 3 }, (_, index) => delivery(30 - index, 2));
    const { user, location } = renderApp(
      "/webhooks/2",
      webhooksApi([webhook(2, URL_2)], many, { pageSize: 2 }).handler,
      {
        session: ADMIN,
      },
    );
    const next = await screen.findByRole("link", { name: "Next page" });
    expect(next).toHaveAttribute("href", "/webhooks/2?after=29");
    await user.click(next);
    await waitFor(() => expect(deliveryRows()).toHaveLength(1));
    expect(location.current).toBe("/webhooks/2?after=29");
    expect(screen.queryByRole("link", { name: "Next page" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "First page" })).toHaveAttribute("href", "/webhooks/2");
  });

  it("an unknown id is not found", async () => {
    const { requests } = renderApp("/webhooks/9", webhooksApi([]).handler, { session: ADMIN });
    expect(await screen.findByRole("heading", { name: "Webhook endpoint not found" })).toBeInTheDocument();
    expect(requests).toHaveLength(1);
  });

  it("a malformed id is not found without asking", async () => {
    const { requests } = renderApp("/webhooks/abc", webhooksApi([]).handler, { session: ADMIN });
    expect(await screen.findByRole("heading", { name: "Webhook endpoint not found" })).toBeInTheDocument();
    expect(requests).toEqual([]);
  });

  it("shows a failure to load with Retry", async () => {
    renderApp("/webhooks/2", () => errorResponse(403, "FORBIDDEN", "Not for this key."), { session: ADMIN });
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Webhook endpoint 2 could not be loaded. Not for this key.",
    );
    expect(screen.getByRole("button", { name: "Retry" })).toBeInTheDocument();
  });
});
