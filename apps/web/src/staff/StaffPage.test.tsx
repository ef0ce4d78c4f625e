import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { apiKey, INVITATION_URL, staffApi, staffMember } from "../test/fake-staff-api.js";
import { personSession, renderApp, testSession } from "../test/render-app.js";
import { OWN_ACCESS_CHANGED_MESSAGE } from "./StaffPage.js";

const ADMIN = testSession("admin", "Configured key 1");

function personRow(name: string) {
  const row = within(screen.getByRole("table", { name: "Staff" }))
    .getByRole("rowheader", { name })
    .closest("tr");
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole("cell")
    .map((cell) => cell.textContent);

describe("the Staff page", () => {
  it("lists people with their email, role, last sign-in and status", async () => {
    const { handler } = staffApi({
      staff: [
        staffMember(3, "New Hire", { lastSignInAt: null, role: "read" }),
        staffMember(2, "Sam Rivera"),
        staffMember(1, "Leaver", { disabledAt: "2026-11-01T00:00:00.000Z" }),
      ],
    });
    renderApp("/staff", handler, { session: ADMIN });
    const table = await screen.findByRole("table", { name: "Staff" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((header) => header.textContent),
    ).toEqual(["Name", "Email", "Role", "Last sign-in", "Status", "Actions"]);
    expect(cellTexts(personRow("New Hire")).slice(0, 4)).toEqual(["new.hire@example.com", "read", "Never", "invited"]);
    expect(cellTexts(personRow("Sam Rivera"))[3]).toBe("active");
    expect(within(personRow("Sam Rivera")).getByRole("time")).toHaveAttribute("datetime", "2026-11-24T08:00:00.000Z");
    expect(cellTexts(personRow("Leaver"))[3]).toBe("disabled");
    expect(
      screen.getAllByRole("button", { name: /^Disable / }).map((button) => button.getAttribute("aria-label")),
    ).toEqual(["Disable New Hire", "Disable Sam Rivera"]);
    expect(within(personRow("Sam Rivera")).getByRole("button", { name: "Change role" })).toBeInTheDocument();
    expect(within(personRow("Leaver")).queryByRole("button")).not.toBeInTheDocument();
  });

  it("gives a person who never signed in a new invitation link, shown once like the first", async () => {
    const { handler } = staffApi({
      staff: [staffMember(3, "New Hire", { lastSignInAt: null, role: "read" }), staffMember(2, "Sam Rivera")],
    });
    const { user, requests } = renderApp("/staff", handler, { session: ADMIN });
    await screen.findByRole("table", { name: "Staff" });
    expect(
      within(personRow("Sam Rivera")).queryByRole("button", { name: /^New invitation link/ }),
    ).not.toBeInTheDocument();
    await user.click(within(personRow("New Hire")).getByRole("button", { name: "New invitation link for New Hire" }));

    const link = await screen.findByLabelText("Invitation link");
    expect(link).toHaveValue(INVITATION_URL);
    expect(link).toHaveFocus();
    const post = requests.find((request) => request.method === "POST");
    expect(await post?.json()).toEqual({ email: "new.hire@example.com", name: "New Hire", role: "read" });
    expect(screen.getByRole("status")).toHaveTextContent(
      "New invitation link for New Hire: hand it over; the earlier one no longer works.",
    );
  });

  it("says why no new link was made when the API refuses it", async () => {
    const { handler, people } = staffApi({ staff: [staffMember(3, "New Hire", { lastSignInAt: null })] });
    const { user } = renderApp("/staff", handler, { session: ADMIN });
    await screen.findByRole("table", { name: "Staff" });
    // Signed in meanwhile, in another tab: the API refuses, the page says so.
    people[0] = { ...people[0]!, lastSignInAt: "2026-11-25T08:00:00.000Z" };
    await user.click(within(personRow("New Hire")).getByRole("button", { name: "New invitation link for New Hire" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "No new link was made. email is already a staff member's",
    );
    expect(screen.queryByLabelText("Invitation link")).not.toBeInTheDocument();
  });

  it("checks the invitation with the contract before sending anything", async () => {
    const { user, requests } = renderApp("/staff", staffApi().handler, { session: ADMIN });
    expect(await screen.findByText("Nobody has been invited yet.")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Email"), "not-an-email");
    await user.click(screen.getByRole("button", { name: "Create invitation" }));
    expect(screen.getByLabelText("Email")).toHaveAccessibleDescription(
      expect.stringContaining("Email must be an email address"),
    );
    expect(screen.getByLabelText("Email")).toHaveFocus();
    expect(screen.getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
    expect(requests.filter((request) => request.method === "POST")).toEqual([]);
  });

  it("invites someone, shows the link once in Invitation link with Copy, and lists them", async () => {
    const { user, requests } = renderApp("/staff", staffApi().handler, { session: ADMIN });
    await user.type(await screen.findByLabelText("Email"), " Sam@Example.com ");
    await user.type(screen.getByLabelText("Name"), "Sam Rivera");
    await user.selectOptions(screen.getByLabelText("Role"), "write");
    await user.click(screen.getByRole("button", { name: "Create invitation" }));

    const link = await screen.findByLabelText("Invitation link");
    expect(link).toHaveValue(INVITATION_URL);
    expect(link).toHaveAttribute("readonly");
    expect(link).toHaveFocus();
    expect(link).toHaveAccessibleDescription(expect.stringContaining("It will not be shown again"));
    const post = requests.find((request) => request.method === "POST");
    expect(await post?.json()).toEqual({ email: "sam@example.com", name: "Sam Rivera", role: "write" });
    expect(cellTexts(personRow("Sam Rivera")).slice(0, 4)).toEqual(["sam@example.com", "write", "Never", "invited"]);
    expect(screen.getByLabelText("Email")).toHaveValue("");

    await user.click(screen.getByRole("button", { name: "Copy" }));
    expect(await navigator.clipboard.readText()).toBe(INVITATION_URL);
    expect(screen.getByRole("status")).toHaveTextContent("Copied the invitation link for Sam Rivera.");
  });

  it("shows the API's refusal beside the field it names", async () => {
    const { user } = renderApp(
      "/staff",
      staffApi({ staff: [staffMember(2, "Sam Rivera", { email: "sam@example.com" })] }).handler,
      {
        session: ADMIN,
      },
    );
    await user.type(await screen.findByLabelText("Email"), "sam@example.com");
    await user.type(screen.getByLabelText("Name"), "Sam Again");
    await user.click(screen.getByRole("button", { name: "Create invitation" }));
    await waitFor(() =>
      expect(screen.getByLabelText("Email")).toHaveAccessibleDescription(
        expect.stringContaining("already a staff member's"),
      ),
    );
    expect(screen.queryByLabelText("Invitation link")).not.toBeInTheDocument();
  });

  it("changes a role after a dialog confirms it", async () => {
    const { handler, people } = staffApi({ staff: [staffMember(2, "Sam Rivera")] });
    const { user, requests } = renderApp("/staff", handler, { session: ADMIN });
    await user.click(
      await within(await screen.findByRole("table", { name: "Staff" })).findByRole("button", { name: "Change role" }),
    );
    const dialog = screen.getByRole("alertdialog", { name: "Change the role of Sam Rivera?" });
    await user.selectOptions(within(dialog).getByLabelText("Role"), "admin");
    await user.click(within(dialog).getByRole("button", { name: "Change role" }));
    await waitFor(() => expect(cellTexts(personRow("Sam Rivera"))[1]).toBe("admin"));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    const post = requests.find((request) => request.method === "POST");
    expect(new URL(post!.url).pathname).toBe("/admin/v1/staff/2/role");
    expect(await post!.json()).toEqual({ role: "admin" });
    expect(people[0]!.role).toBe("admin");
    expect(screen.getByRole("status")).toHaveTextContent("Sam Rivera is now admin.");
  });

  it("disables after an alertdialog confirms with Disable; Escape cancels", async () => {
    const { handler } = staffApi({ staff: [staffMember(2, "Sam Rivera")] });
    const { user, requests } = renderApp("/staff", handler, { session: ADMIN });
    await user.click(await screen.findByRole("button", { name: "Disable Sam Rivera" }));
    const dialog = screen.getByRole("alertdialog", { name: "Disable Sam Rivera?" });
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(requests.filter((request) => request.method === "POST")).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Disable Sam Rivera" }));
    expect(
      await within(screen.getByRole("alertdialog")).findByText("Sam Rivera has made no key that is still active."),
    ).toBeInTheDocument();
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Disable" }));
    await waitFor(() => expect(cellTexts(personRow("Sam Rivera"))[3]).toBe("disabled"));
    expect(screen.queryByRole("button", { name: "Disable Sam Rivera" })).not.toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Disabled Sam Rivera.");
  });

  it("the Disable dialog lists the person's active keys with Also revoke their keys checked, and sends revokeKeys", async () => {
    const { handler, keys } = staffApi({
      staff: [staffMember(3, "Kim Lee"), staffMember(2, "Sam Rivera")],
      keys: [
        apiKey(14, "Kim's till", { createdByStaffId: 3 }),
        apiKey(13, "Till 2", { createdByStaffId: 2, scope: "write" }),
        apiKey(12, "Till 1", { createdByStaffId: 2, expiresAt: "2031-01-01T00:00:00.000Z" }),
        apiKey(11, "Old till", { createdByStaffId: 2, revokedAt: "2026-11-21T09:00:00.000Z" }),
        apiKey(10, "Lapsed", { createdByStaffId: 2, expiresAt: "2026-01-01T00:00:00.000Z" }),
      ],
    });
    const { user, requests } = renderApp("/staff", handler, { session: ADMIN });
    await user.click(await screen.findByRole("button", { name: "Disable Sam Rivera" }));
    const dialog = screen.getByRole("alertdialog", { name: "Disable Sam Rivera?" });
    const list = await within(dialog).findByRole("list", { name: "Active keys Sam Rivera made" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Till 2 (write, psk_xxxxxx13)", "Till 1 (read, psk_xxxxxx12)"]);
    const listed = requests.find((request) => new URL(request.url).pathname === "/admin/v1/keys");
    expect(new URL(listed!.url).searchParams.get("createdByStaffId")).toBe("2");
    const revokeToo = within(dialog).getByRole("checkbox", { name: "Also revoke their keys" });
    expect(revokeToo).toBeChecked();

    await user.click(within(dialog).getByRole("button", { name: "Disable" }));
    await waitFor(() => expect(cellTexts(personRow("Sam Rivera"))[3]).toBe("disabled"));
    const post = requests.find((request) => request.method === "POST");
    expect(new URL(post!.url).pathname).toBe("/admin/v1/staff/2/disable");
    expect(await post!.json()).toEqual({ revokeKeys: true });
    expect(screen.getByRole("status")).toHaveTextContent("Disabled Sam Rivera and revoked their keys.");
    expect(keys.filter((key) => key.revokedAt === "2026-11-25T10:00:00.000Z").map((key) => key.name)).toEqual([
      "Till 2",
      "Till 1",
      "Lapsed",
    ]);
    expect(keys.find((key) => key.name === "Kim's till")?.revokedAt).toBeNull();
  });

  it("unchecking Also revoke their keys disables the person and leaves their keys working, and says so", async () => {
    const { handler, keys } = staffApi({
      staff: [staffMember(2, "Sam Rivera")],
      keys: [apiKey(12, "Till 1", { createdByStaffId: 2 })],
    });
    const { user, requests } = renderApp("/staff", handler, { session: ADMIN });
    await user.click(await screen.findByRole("button", { name: "Disable Sam Rivera" }));
    const dialog = screen.getByRole("alertdialog", { name: "Disable Sam Rivera?" });
    await within(dialog).findByRole("list", { name: "Active keys Sam Rivera made" });
    await user.click(within(dialog).getByRole("checkbox", { name: "Also revoke their keys" }));
    expect(within(dialog).getByRole("checkbox", { name: "Also revoke their keys" })).not.toBeChecked();
    await user.click(within(dialog).getByRole("button", { name: "Disable" }));
    await waitFor(() => expect(cellTexts(personRow("Sam Rivera"))[3]).toBe("disabled"));
    expect(await requests.find((request) => request.method === "POST")!.json()).toEqual({ revokeKeys: false });
    expect(screen.getByRole("status")).toHaveTextContent("Disabled Sam Rivera. Their 1 key still works.");
    expect(keys[0]!.revokedAt).toBeNull();
  });

  it("an admin who lowers their own role is asked again; only the second Change role sends it", async () => {
    const me = personSession("admin", "Ana Admin", 5);
    const { handler } = staffApi({ staff: [staffMember(5, "Ana Admin", { role: "admin" })] });
    const { user, requests, location } = renderApp("/staff", handler, { session: me });
    await user.click(await screen.findByRole("button", { name: "Change role" }));
    const dialog = screen.getByRole("alertdialog");
    await user.selectOptions(within(dialog).getByLabelText("Role"), "write");
    await user.click(within(dialog).getByRole("button", { name: "Change role" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("You are lowering your own role from admin to write");
    expect(requests.filter((request) => request.method === "POST")).toEqual([]);

    await user.click(within(dialog).getByRole("button", { name: "Change role" }));
    expect(await screen.findByRole("heading", { name: "Sign in", level: 1 })).toBeInTheDocument();
    expect(location.current).toBe("/sign-in");
    expect(
      requests.filter((request) => request.method === "POST").map((request) => new URL(request.url).pathname),
    ).toContain("/admin/v1/staff/5/role");
  });

  it("an admin who disables themselves is signed out, and told why", async () => {
    const me = personSession("admin", "Ana Admin", 5);
    const { handler } = staffApi({
      staff: [staffMember(5, "Ana Admin", { role: "admin" }), staffMember(6, "Bo Clerk", { role: "write" })],
    });
    const { user, location } = renderApp("/staff", handler, { session: me });
    // Their own row says it is them before they touch it; no one else's does.
    const table = await screen.findByRole("table", { name: "Staff" });
    expect(within(table).getByRole("rowheader", { name: "Ana Admin (you)" })).toBeInTheDocument();
    expect(within(table).getByRole("rowheader", { name: "Bo Clerk" })).toBeInTheDocument();
    await user.click(await screen.findByRole("button", { name: "Disable Ana Admin" }));
    expect(screen.getByRole("alertdialog")).toHaveTextContent("It is you: you will be signed out.");
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Disable" }));
    expect(await screen.findByRole("heading", { name: "Sign in", level: 1 })).toBeInTheDocument();
    expect(location.current).toBe("/sign-in");
    expect(screen.getByRole("alert")).toHaveTextContent(OWN_ACCESS_CHANGED_MESSAGE);
  });
});
