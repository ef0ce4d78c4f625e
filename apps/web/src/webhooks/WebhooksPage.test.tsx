import { WEBHOOK_EVENT_TYPES } from "@petstore/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { delivery, webhook, WEBHOOK_SECRET, webhooksApi } from "../test/fake-webhooks-api.js";
import { errorResponse, renderApp, testSession } from "../test/render-app.js";

const ADMIN = testSession("admin", "Ops lead");

function rows() {
  return within(screen.getByRole("table", { name: "Webhook endpoints" }))
    .getAllByRole("row")
    .slice(1);
}

describe("the Webhooks page", () => {
  it("lists the endpoints: URL (a link to its page), events, status and last delivery", async () => {
    const { handler } = webhooksApi(
      [
        webhook(2, "https://hooks.example.com/stock", { description: "Stock system", eventTypes: ["pet.created"] }),
        webhook(1, "https://old.example.com/hook", {
          enabled: false,
          disabledReason: "The endpoint answered 410 Gone.",
        }),
      ],
      [delivery(5, 2, { status: "failed" })],
    );
    renderApp("/webhooks", handler, { session: ADMIN });
    const table = await screen.findByRole("table", { name: "Webhook endpoints" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((header) => header.textContent),
    ).toEqual(["URL", "Events", "Status", "Last delivery"]);
    const [stock, old] = rows();
    expect(within(stock!).getByRole("link", { name: "https://hooks.example.com/stock" })).toHaveAttribute(
      "href",
      "/webhooks/2",
    );
    expect(within(stock!).getByRole("rowheader")).toHaveTextContent("Stock system");
    await waitFor(() =>
      expect(
        within(stock!)
          .getAllByRole("cell")
          .map((cell) => cell.textContent)[2],
      ).toMatch(/^failed/),
    );
    expect(
      within(stock!)
        .getAllByRole("cell")
        .map((cell) => cell.textContent)
        .slice(0, 2),
    ).toEqual(["pet.created", "Enabled"]);
    expect(within(old!).getAllByRole("cell")[0]).toHaveTextContent("All events");
    expect(within(old!).getAllByRole("cell")[1]).toHaveTextContent("DisabledThe endpoint answered 410 Gone.");
    await waitFor(() => expect(within(old!).getAllByRole("cell")[2]).toHaveTextContent("None yet"));
  });

  it("reads a pending last delivery again until it is settled", async () => {
    const api = webhooksApi(
      [webhook(2, "https://hooks.example.com/stock")],
      [delivery(5, 2, { status: "pending", attempts: [] })],
    );
    renderApp("/webhooks", api.handler, { session: ADMIN });
    await waitFor(() => expect(within(rows()[0]!).getAllByRole("cell")[2]).toHaveTextContent(/^pending/));
    api.deliveries[0] = delivery(5, 2);
    await waitFor(() => expect(within(rows()[0]!).getAllByRole("cell")[2]).toHaveTextContent(/^succeeded/), {
      timeout: 3000,
    });
  });

  it("says when there are none", async () => {
    renderApp("/webhooks", webhooksApi([]).handler, { session: ADMIN });
    expect(await screen.findByText(/No webhook endpoints yet/)).toBeInTheDocument();
  });

  it("shows a failure with Retry", async () => {
    renderApp("/webhooks", () => errorResponse(403, "FORBIDDEN", "This key may not manage webhooks."), {
      session: ADMIN,
    });
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The webhook endpoints could not be loaded. This key may not manage webhooks.",
    );
    expect(screen.getByRole("button", { name: "Retry" })).toBeInTheDocument();
  });

  it("checks the new endpoint with the contract, beside each field, and sends nothing", async () => {
    const { user, requests } = renderApp("/webhooks", webhooksApi([]).handler, { session: ADMIN });
    await screen.findByText(/No webhook endpoints yet/);
    await user.type(screen.getByLabelText("Endpoint URL"), "not a url");
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    expect(screen.getByLabelText("Endpoint URL")).toHaveAccessibleDescription(
      expect.stringContaining("Endpoint URL must be an absolute URL"),
    );
    expect(screen.getByLabelText("Endpoint URL")).toHaveFocus();
    expect(requests.filter((request) => request.method === "POST")).toEqual([]);
  });

  it("adds an endpoint with the events checked, shows its secret once with Copy, and lists it", async () => {
    const { user, requests } = renderApp("/webhooks", webhooksApi([]).handler, { session: ADMIN });
    const form = await screen.findByRole("form", { name: "Add endpoint" });
    await user.type(within(form).getByLabelText("Endpoint URL"), "https://hooks.example.com/petstore");
    await user.type(within(form).getByLabelText("Description"), "Stock system");
    // The contract's event types, in its order.
    expect(
      within(form)
        .getAllByRole("checkbox")
        .map((box) => box.getAttribute("value")),
    ).toEqual([...WEBHOOK_EVENT_TYPES]);
    await user.click(within(form).getByRole("checkbox", { name: "key.revoked" }));
    await user.click(within(form).getByRole("checkbox", { name: "pet.created" }));
    await user.click(within(form).getByRole("button", { name: "Add endpoint" }));

    const secret = await screen.findByLabelText("Signing secret");
    expect(secret).toHaveValue(WEBHOOK_SECRET);
    expect(secret).toHaveAttribute("readonly");
    expect(secret).toHaveFocus();
    expect(secret).toHaveAccessibleDescription(expect.stringContaining("It will not be shown again"));
    const post = requests.find((request) => request.method === "POST");
    expect(await post?.json()).toEqual({
      url: "https://hooks.example.com/petstore",
      description: "Stock system",
      eventTypes: ["pet.created", "key.revoked"],
    });
    expect(screen.getByRole("status")).toHaveTextContent("Added the endpoint https://hooks.example.com/petstore.");
    expect(await screen.findByRole("link", { name: "https://hooks.example.com/petstore" })).toHaveAttribute(
      "href",
      "/webhooks/100",
    );
    expect(within(form).getByLabelText("Endpoint URL")).toHaveValue("");
    expect(within(form).getByRole("checkbox", { name: "pet.created" })).not.toBeChecked();

    await user.click(screen.getByRole("button", { name: "Copy" }));
    expect(await navigator.clipboard.readText()).toBe(WEBHOOK_SECRET);
    expect(screen.getByRole("status")).toHaveTextContent(
      "Copied the signing secret for https://hooks.example.com/petstore.",
    );
  });

  it("leaves out an empty description and, with nothing checked, subscribes to every event", async () => {
    const { user, requests } = renderApp("/webhooks", webhooksApi([]).handler, { session: ADMIN });
    await user.type(await screen.findByLabelText("Endpoint URL"), "https://hooks.example.com/all");
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    await screen.findByLabelText("Signing secret");
    expect(await requests.find((request) => request.method === "POST")?.json()).toEqual({
      url: "https://hooks.example.com/all",
    });
  });

  it("shows the API's refusal of the URL beside the field", async () => {
    const { user } = renderApp(
      "/webhooks",
      async (request) =>
        request.method === "POST"
          ? errorResponse(
              400,
              "VALIDATION_ERROR",
              "Invalid request: body.url: the host resolves to a private address.",
              [{ field: "body.url", message: "the host resolves to a private address" }],
            )
          : webhooksApi([]).handler(request),
      { session: ADMIN },
    );
    await user.type(await screen.findByLabelText("Endpoint URL"), "https://10.0.0.1/hook");
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    await waitFor(() =>
      expect(screen.getByLabelText("Endpoint URL")).toHaveAccessibleDescription(
        expect.stringContaining("the host resolves to a private address"),
      ),
    );
    expect(screen.queryByLabelText("Signing secret")).not.toBeInTheDocument();
  });
});
