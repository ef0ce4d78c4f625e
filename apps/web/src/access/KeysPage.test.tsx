import type { ApiKey, StaffMember } from "@petstore/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { apiKey, staffMember } from "../test/fake-staff-api.js";
import { jsonResponse, renderApp, testSession } from "../test/render-app.js";
import { SELF_REVOKED_MESSAGE } from "./KeyTable.js";

const ADMIN = testSession("admin", "Ops lead");
const SECRET = `psk_${"A".repeat(43)}`;

/**
 * The access API's key operations over an in-memory list, as the server answers them, and listStaff
 * over `staff`; anything else is an empty list.
 */
function keysApi(initial: ApiKey[], staff: StaffMember[] = []) {
  const keys = [...initial];
  const handler = async (request: Request) => {
    const { pathname } = new URL(request.url);
    if (request.method === "GET" && pathname === "/admin/v1/keys") return jsonResponse(200, keys);
    if (request.method === "GET" && pathname === "/admin/v1/staff") return jsonResponse(200, staff);
    if (request.method === "POST" && pathname === "/admin/v1/keys") {
      const body = (await request.json()) as { name: string; scope: ApiKey["scope"]; expiresAt?: string };
      const key = apiKey(100 + keys.length, body.name, { scope: body.scope, expiresAt: body.expiresAt ?? null });
      keys.unshift(key);
      return jsonResponse(201, { key, secret: SECRET });
    }
    const revoke = /^\/admin\/v1\/keys\/(\d+)\/revoke$/.exec(pathname);
    if (request.method === "POST" && revoke) {
      const index = keys.findIndex((key) => key.id === Number(revoke[1]));
      keys[index] = { ...keys[index]!, revokedAt: "2026-11-24T10:00:00.000Z" };
      return jsonResponse(200, keys[index]);
    }
    return jsonResponse(200, []);
  };
  return { keys, handler };
}

function keyRow(name: string) {
  const row = within(screen.getByRole("table", { name: "Keys" }))
    .getByRole("rowheader", { name })
    .closest("tr");
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole("cell")
    .map((cell) => cell.textContent);

describe("the Keys page", () => {
  it("lists the keys with their scope, prefix, use and status; only active keys can be revoked", async () => {
    const { handler } = keysApi([
      apiKey(3, "Front desk", {
        lastDeprecatedUseAt: "2026-11-23T08:00:00.000Z",
        lastUsedAt: "2026-11-23T08:00:00.000Z",
      }),
      apiKey(2, "Old intake", { scope: "write", expiresAt: "2026-01-01T00:00:00.000Z" }),
      apiKey(1, "Leaver", { revokedAt: "2026-11-01T00:00:00.000Z" }),
    ]);
    renderApp("/keys", handler, { session: ADMIN });
    const table = await screen.findByRole("table", { name: "Keys" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((header) => header.textContent),
    ).toEqual([
      "Name",
      "Scope",
      "Prefix",
      "Created",
      "Expires",
      "Last used",
      "Last use of the old pet lookup",
      "Status",
      "Actions",
    ]);
    const frontDesk = cellTexts(keyRow("Front desk"));
    expect(frontDesk.slice(0, 2)).toEqual(["read", "psk_xxxxxxx3"]);
    expect(frontDesk[2]).toContain("by Configured key 1");
    expect(frontDesk[3]).toBe("Does not expire");
    expect(frontDesk[6]).toBe("active");
    expect(
      within(keyRow("Front desk"))
        .getAllByRole("time")
        .map((time) => time.getAttribute("datetime")),
    ).toEqual(["2026-11-20T09:00:00.000Z", "2026-11-23T08:00:00.000Z", "2026-11-23T08:00:00.000Z"]);
    expect(cellTexts(keyRow("Old intake"))[6]).toBe("expired");
    expect(cellTexts(keyRow("Leaver"))[5]).toBe("Never");
    expect(cellTexts(keyRow("Leaver"))[6]).toBe("revoked");
    expect(
      screen.getAllByRole("button", { name: /^Revoke / }).map((button) => button.getAttribute("aria-label")),
    ).toEqual(["Revoke Front desk"]);
  });

  it("marks the keys whose creator is disabled", async () => {
    const { handler } = keysApi(
      [
        apiKey(4, "Till", { createdBy: "Leaver", createdByStaffId: 2 }),
        apiKey(3, "Old till", { createdBy: "Leaver", createdByStaffId: 2, revokedAt: "2026-11-25T10:00:00.000Z" }),
        apiKey(2, "Intake", { createdBy: "Sam Rivera", createdByStaffId: 5 }),
        apiKey(1, "Front desk"),
      ],
      [staffMember(5, "Sam Rivera"), staffMember(2, "Leaver", { disabledAt: "2026-11-25T10:00:00.000Z" })],
    );
    renderApp("/keys", handler, { session: ADMIN });
    await screen.findByRole("table", { name: "Keys" });
    await waitFor(() => expect(cellTexts(keyRow("Till"))[6]).toBe("activeCreator disabled"));
    expect(cellTexts(keyRow("Old till"))[6]).toBe("revokedCreator disabled");
    expect(cellTexts(keyRow("Intake"))[6]).toBe("active");
    expect(cellTexts(keyRow("Front desk"))[6]).toBe("active");
  });

  it("checks the new key with the contract, beside each field, and sends nothing", async () => {
    const { user, requests } = renderApp("/keys", keysApi([]).handler, { session: ADMIN });
    expect(await screen.findByText("No keys have been issued yet.")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Expires"), "2001-01-01");
    await user.click(screen.getByRole("button", { name: "Create key" }));
    expect(screen.getByLabelText("Name")).toHaveAccessibleDescription(
      expect.stringContaining("Name must not be empty"),
    );
    expect(screen.getByLabelText("Name")).toHaveFocus();
    expect(screen.getByLabelText("Expires")).toHaveAccessibleDescription(
      expect.stringContaining("Expires must be in the future"),
    );
    expect(requests.filter((request) => request.method === "POST")).toEqual([]);
  });

  it("creates a key, shows its secret once in New key, copies it, and lists the key without a reload", async () => {
    const { user, requests } = renderApp("/keys", keysApi([]).handler, { session: ADMIN });
    await user.type(await screen.findByLabelText("Name"), "  Front desk ");
    await user.selectOptions(screen.getByLabelText("Scope"), "read");
    await user.click(screen.getByRole("button", { name: "Create key" }));

    const secret = await screen.findByLabelText("New key");
    expect(secret).toHaveValue(SECRET);
    expect(secret).toHaveAttribute("readonly");
    expect(secret).toHaveFocus();
    expect(secret).toHaveAccessibleDescription(expect.stringContaining("It will not be shown again"));
    const post = requests.find((request) => request.method === "POST");
    expect(await post?.json()).toEqual({ name: "Front desk", scope: "read" });
    expect(screen.getByRole("status")).toHaveTextContent("Created the key Front desk.");
    expect(
      within(await screen.findByRole("table", { name: "Keys" })).getByRole("rowheader", { name: "Front desk" }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toHaveValue("");

    await user.click(screen.getByRole("button", { name: "Copy" }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(screen.getByRole("status")).toHaveTextContent("Copied the key for Front desk.");
  });

  it("takes the new key's secret off the screen when that key is revoked, and only then", async () => {
    const { user } = renderApp("/keys", keysApi([apiKey(3, "Old till")]).handler, { session: ADMIN });
    await user.type(await screen.findByLabelText("Name"), "Front desk");
    await user.click(screen.getByRole("button", { name: "Create key" }));
    await screen.findByLabelText("New key");

    await user.click(await screen.findByRole("button", { name: "Revoke Old till" }));
    await user.click(screen.getByRole("button", { name: "Revoke key" }));
    await waitFor(() => expect(cellTexts(keyRow("Old till"))[6]).toBe("revoked"));
    expect(screen.getByLabelText("New key")).toHaveValue(SECRET);

    await user.click(screen.getByRole("button", { name: "Revoke Front desk" }));
    await user.click(screen.getByRole("button", { name: "Revoke key" }));
    await waitFor(() => expect(cellTexts(keyRow("Front desk"))[6]).toBe("revoked"));
    expect(screen.queryByLabelText("New key")).not.toBeInTheDocument();
    expect(screen.queryByText(/can sign in with this key/)).not.toBeInTheDocument();
  });

  it("sends the chosen expiry day as the midnight that ends it", async () => {
    const { user, requests } = renderApp("/keys", keysApi([]).handler, { session: ADMIN });
    await user.type(await screen.findByLabelText("Name"), "Temp");
    await user.type(screen.getByLabelText("Expires"), "2031-03-04");
    await user.click(screen.getByRole("button", { name: "Create key" }));
    await screen.findByLabelText("New key");
    const post = requests.find((request) => request.method === "POST");
    expect(await post?.json()).toEqual({ name: "Temp", scope: "read", expiresAt: new Date(2031, 2, 5).toISOString() });
  });

  it("revokes after an alertdialog confirms; Escape cancels; the table updates", async () => {
    const { handler } = keysApi([apiKey(3, "Front desk")]);
    const { user, requests } = renderApp("/keys", handler, { session: ADMIN });
    const revoke = await screen.findByRole("button", { name: "Revoke Front desk" });

    await user.click(revoke);
    const dialog = screen.getByRole("alertdialog", { name: "Revoke Front desk?" });
    expect(dialog).toHaveAccessibleDescription(expect.stringContaining("This cannot be undone."));
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole("button", { name: "Revoke key" })).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(revoke).toHaveFocus();
    expect(requests.filter((request) => request.method === "POST")).toEqual([]);

    await user.click(revoke);
    await user.click(screen.getByRole("button", { name: "Revoke key" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    const post = requests.find((request) => request.method === "POST");
    expect(new URL(post!.url).pathname).toBe("/admin/v1/keys/3/revoke");
    await waitFor(() => expect(cellTexts(keyRow("Front desk"))[6]).toBe("revoked"));
    expect(screen.queryByRole("button", { name: "Revoke Front desk" })).not.toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Revoked the key Front desk.");
  });

  it("revoking the key this tab is signed in with signs out", async () => {
    const own = apiKey(7, "Ops lead", { scope: "admin" });
    const { user, location } = renderApp("/keys", keysApi([own]).handler, { session: { ...ADMIN, keyId: "7" } });
    await user.click(await screen.findByRole("button", { name: "Revoke Ops lead" }));
    expect(screen.getByRole("alertdialog")).toHaveTextContent("you will be signed out");
    await user.click(screen.getByRole("button", { name: "Revoke key" }));
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(location.current).toBe("/sign-in");
    expect(screen.getByRole("alert")).toHaveTextContent(SELF_REVOKED_MESSAGE);
    expect(sessionStorage.length).toBe(0);
  });
});
