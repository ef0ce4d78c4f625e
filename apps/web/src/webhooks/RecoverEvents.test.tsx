import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { delivery, webhook, webhooksApi } from "../test/fake-webhooks-api.js";
import { renderApp, testSession } from "../test/render-app.js";
import { localDateTimeBefore, recoveredSentence } from "./RecoverEvents.js";

const ADMIN = testSession("admin", "Ops lead");

describe("Recover events on an endpoint's page", () => {
  it("sends the window's start and says how many events were queued", async () => {
    const { handler } = webhooksApi(
      [webhook(2, "https://hooks.example.com/stock")],
      [delivery(7, 2, { status: "failed", createdAt: new Date(Date.now() - 3_600_000).toISOString() }), delivery(6, 2)],
    );
    const { user, requests } = renderApp("/webhooks/2", handler, { session: ADMIN });
    const form = await screen.findByRole("form", { name: "Recover events" });
    const since = within(form).getByLabelText("Since");
    await user.clear(since);
    await user.type(since, localDateTimeBefore(new Date(), 2));
    await user.click(within(form).getByRole("button", { name: "Recover events" }));
    expect(await screen.findByText("Queued 1 event to be sent again.")).toBeInTheDocument();
    const sent = requests.find((request) => request.url.endsWith("/admin/v1/webhooks/2/recover"))!;
    const body = (await sent.json()) as { since: string };
    expect(Math.abs(Date.parse(body.since) - (Date.now() - 2 * 3_600_000))).toBeLessThan(120_000);
  });

  it("says why nothing was queued for a disabled endpoint, and refuses a time in the future without asking", async () => {
    const { handler } = webhooksApi(
      [webhook(2, "https://hooks.example.com/stock", { enabled: false, disabledReason: "Disabled by Ops lead." })],
      [],
    );
    const { user, requests } = renderApp("/webhooks/2", handler, { session: ADMIN });
    const form = await screen.findByRole("form", { name: "Recover events" });
    await user.click(within(form).getByRole("button", { name: "Recover events" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent(
      "No events were queued. The endpoint is disabled: enable it, then recover its events.",
    );
    const since = within(form).getByLabelText("Since");
    await user.clear(since);
    await user.type(since, localDateTimeBefore(new Date(), -5));
    const before = requests.length;
    await user.click(within(form).getByRole("button", { name: "Recover events" }));
    await waitFor(() => expect(within(form).getByText("Since must not be in the future")).toBeInTheDocument());
    expect(requests.length).toBe(before);
  });

  it("words what was queued", () => {
    expect(recoveredSentence(0)).toBe("Nothing to send again: the endpoint has answered every event since then.");
    expect(recoveredSentence(1_204)).toBe("Queued 1,204 events to be sent again.");
  });
});
