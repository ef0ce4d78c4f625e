import { AUDIT_ACTIONS, type AuditEvent } from "@petstore/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, renderApp, testSession } from "../test/render-app.js";

const ADMIN = testSession("admin", "Configured key 1");

function auditEvent(id: number, action: AuditEvent["action"], target: AuditEvent["target"]): AuditEvent {
  return {
    id,
    at: `2026-11-24T10:${String(id).padStart(2, "0")}:00.000Z`,
    action,
    actor: { keyId: "configured-3f9a0c1b2d4e", staffId: null, name: "Configured key 1" },
    detail: null,
    target,
    requestId: `request-${id}`,
    clientAddress: "127.0.0.1",
  };
}

const REVOKED = auditEvent(12, "key.revoked", { type: "key", id: 3, label: "Front desk" });
const CREATED = auditEvent(11, "key.created", { type: "key", id: 3, label: "Front desk" });
const PET = auditEvent(10, "pet.created", { type: "pet", id: 37, label: "Rex" });
const WEBHOOK = auditEvent(13, "webhook.created", { type: "webhook", id: 4, label: "https://hooks.example.com/stock" });

function rows() {
  return within(screen.getByRole("table", { name: "Activity" }))
    .getAllByRole("row")
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    );
}

describe("the Activity page", () => {
  it("shows the audit events as the API sends them, newest first: when, and what happened in a sentence", async () => {
    renderApp("/activity", () => jsonResponse(200, [REVOKED, CREATED, PET]), { session: ADMIN });
    const table = await screen.findByRole("table", { name: "Activity" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((header) => header.textContent),
    ).toEqual(["When", "What happened"]);
    expect(rows().map(([, sentence]) => sentence)).toEqual([
      "Configured key 1 revoked the key Front desk",
      "Configured key 1 created the key Front desk",
      "Rex was added by Configured key 1",
    ]);
    expect(within(table).getAllByRole("time")[0]).toHaveAttribute("datetime", REVOKED.at);
    expect(within(table).getByRole("link", { name: "Rex" })).toHaveAttribute("href", "/pets/37");
  });

  it("names the person who acted, says how they signed in, and what they did to whom", async () => {
    const sam = { keyId: null, staffId: 5, name: "Sam Rivera" };
    const signedIn: AuditEvent = {
      ...auditEvent(14, "staff.signed_in", { type: "staff", id: 5, label: "Sam Rivera" }),
      actor: sam,
      detail: "passkey",
    };
    const invited: AuditEvent = {
      ...auditEvent(15, "staff.invited", { type: "staff", id: 6, label: "New Hire" }),
      actor: sam,
      detail: "write",
    };
    const ownPasskey: AuditEvent = {
      ...auditEvent(16, "passkey.added", { type: "staff", id: 5, label: "Sam Rivera" }),
      actor: sam,
    };
    const everywhere: AuditEvent = {
      ...auditEvent(17, "session.ended", { type: "staff", id: 5, label: "Sam Rivera" }),
      actor: sam,
    };
    const role: AuditEvent = {
      ...auditEvent(18, "staff.role_changed", { type: "staff", id: 6, label: "New Hire" }),
      actor: sam,
      detail: "admin",
    };
    const keySession = auditEvent(19, "key.signed_in", { type: "key", id: 3, label: "Front desk" });
    renderApp("/activity", () => jsonResponse(200, [keySession, role, everywhere, ownPasskey, invited, signedIn]), {
      session: ADMIN,
    });
    await screen.findByRole("table", { name: "Activity" });
    expect(rows().map(([, sentence]) => sentence)).toEqual([
      "Someone signed in with the key Front desk",
      "Sam Rivera changed the role of New Hire to admin",
      "Sam Rivera signed out everywhere",
      "Sam Rivera added a passkey",
      "Sam Rivera invited New Hire with the role write",
      "Sam Rivera signed in with a passkey",
    ]);
  });

  it("links a webhook endpoint's event to the endpoint's page", async () => {
    renderApp("/activity", () => jsonResponse(200, [WEBHOOK]), { session: ADMIN });
    const table = await screen.findByRole("table", { name: "Activity" });
    expect(rows()).toEqual([
      [expect.any(String), "Configured key 1 added the endpoint https://hooks.example.com/stock"],
    ]);
    expect(within(table).getByRole("link", { name: "https://hooks.example.com/stock" })).toHaveAttribute(
      "href",
      "/webhooks/4",
    );
  });

  it("never shows an action's code: every action has its sentence", async () => {
    const events = AUDIT_ACTIONS.map((action, index) =>
      auditEvent(index + 1, action, { type: "pet", id: 37, label: "Rex" }),
    );
    renderApp("/activity", () => jsonResponse(200, events), { session: ADMIN });
    const table = await screen.findByRole("table", { name: "Activity" });
    expect(within(table).getAllByRole("row")).toHaveLength(AUDIT_ACTIONS.length + 1);
    for (const action of AUDIT_ACTIONS) expect(table.textContent).not.toContain(action);
  });

  it("filters by action, kept in the URL, and follows the API's next link", async () => {
    const { user, location, requests } = renderApp(
      "/activity",
      (request) => {
        const query = new URL(request.url).searchParams;
        if (query.get("after") === "11") return jsonResponse(200, [PET]);
        return query.get("action") === "key.created"
          ? jsonResponse(200, [CREATED])
          : jsonResponse(200, [REVOKED, CREATED], { Link: '</admin/v1/audit-events?limit=20&after=11>; rel="next"' });
      },
      { session: ADMIN },
    );
    const next = await screen.findByRole("link", { name: "Next page" });
    expect(next).toHaveAttribute("href", "/activity?after=11");
    await user.click(next);
    await waitFor(() => expect(rows().map((row) => row[1])).toEqual(["Rex was added by Configured key 1"]));
    expect(location.current).toBe("/activity?after=11");
    expect(screen.queryByRole("link", { name: "Next page" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "First page" })).toHaveAttribute("href", "/activity");

    await user.selectOptions(screen.getByLabelText("Action"), "key.created");
    expect(location.current).toBe("/activity?action=key.created");
    await waitFor(() => expect(rows().map((row) => row[1])).toEqual(["Configured key 1 created the key Front desk"]));
    const asked = new URL(requests.at(-1)!.url);
    expect(asked.pathname).toBe("/admin/v1/audit-events");
    expect(Object.fromEntries(asked.searchParams)).toEqual({ action: "key.created" });
    expect(screen.getByLabelText("Action")).toHaveValue("key.created");
    // The code is the option's value; what staff read is words, for every action.
    const options = within(screen.getByLabelText("Action")).getAllByRole("option");
    expect(options.find((option) => option.getAttribute("value") === "key.created")).toHaveTextContent("Key created");
    expect(options.filter((option) => /[a-z]\.[a-z]/.test(option.textContent ?? ""))).toEqual([]);
  });

  it("reads the filter from the URL and says when nothing matched", async () => {
    const { requests } = renderApp("/activity?action=key.revoked&after=abc", () => jsonResponse(200, []), {
      session: ADMIN,
    });
    expect(await screen.findByText("No “Key revoked” events yet.")).toBeInTheDocument();
    expect(Object.fromEntries(new URL(requests[0]!.url).searchParams)).toEqual({ action: "key.revoked" });
  });
});
