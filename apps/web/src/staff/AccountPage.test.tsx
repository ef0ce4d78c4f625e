import type { Account } from "@petstore/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createPasskey } from "../passkeys/passkey-ceremonies.js";
import { browserSession, passkey, staffApi, staffMember } from "../test/fake-staff-api.js";
import { personSession, renderApp } from "../test/render-app.js";
import { SIGNED_OUT_EVERYWHERE_MESSAGE } from "./AccountPage.js";

vi.mock("../passkeys/passkey-ceremonies.js", () => ({
  signInWithPasskey: vi.fn(),
  createPasskey: vi.fn(),
}));

const SAM = personSession("write", "Sam Rivera", 12);

function account(changes: Partial<Account> = {}): Account {
  return {
    staff: staffMember(12, "Sam Rivera", { email: "sam@example.com" }),
    passkeys: [passkey(1, "Laptop", { lastUsedAt: "2026-11-25T08:00:00.000Z" }), passkey(2, "Phone")],
    sessions: [browserSession(7, "Firefox on Linux", { current: true }), browserSession(6, "Safari on iPhone")],
    ...changes,
  };
}

describe("the Account page", () => {
  beforeEach(() => {
    vi.mocked(createPasskey).mockReset();
  });

  it("lists the person's passkeys, each removable while another remains, and their sessions", async () => {
    renderApp("/account", staffApi({ account: account() }).handler, { session: SAM });
    expect(await screen.findByRole("heading", { name: "Account", level: 1 })).toBeInTheDocument();
    const passkeys = await screen.findByRole("list", { name: "Your passkeys" });
    expect(
      within(passkeys)
        .getAllByRole("listitem")
        .map((item) => item.querySelector("span")?.textContent),
    ).toEqual(["Laptop", "Phone"]);
    expect(screen.getByRole("button", { name: "Remove Laptop" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Remove Phone" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add a passkey" })).toBeInTheDocument();

    const sessions = screen.getByRole("table", { name: "Sessions" });
    expect(
      within(sessions)
        .getAllByRole("columnheader")
        .map((header) => header.textContent),
    ).toEqual(["Browser", "Signed in", "Last active"]);
    expect(within(sessions).getByRole("rowheader", { name: "Firefox on Linux This browser" })).toBeInTheDocument();
    expect(within(sessions).getByRole("rowheader", { name: "Safari on iPhone" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign out everywhere" })).toBeInTheDocument();
  });

  it("the last passkey cannot be removed", async () => {
    renderApp("/account", staffApi({ account: account({ passkeys: [passkey(1, "Laptop")] }) }).handler, {
      session: SAM,
    });
    expect(await screen.findByText("Laptop")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Remove / })).not.toBeInTheDocument();
    expect(screen.getByText(/Your only passkey cannot be removed/)).toBeInTheDocument();
  });

  it("removes a passkey after a dialog confirms", async () => {
    const api = staffApi({ account: account() });
    const { user, requests } = renderApp("/account", api.handler, { session: SAM });
    await user.click(await screen.findByRole("button", { name: "Remove Phone" }));
    await user.click(
      within(screen.getByRole("alertdialog", { name: "Remove Phone?" })).getByRole("button", {
        name: "Remove passkey",
      }),
    );
    await waitFor(() => expect(screen.queryByText("Phone")).not.toBeInTheDocument());
    const removal = requests.find((request) => request.method === "DELETE");
    expect(new URL(removal!.url).pathname).toBe("/admin/v1/account/passkeys/2");
    expect(screen.getByRole("status")).toHaveTextContent("Removed the passkey Phone.");
    // One passkey left: it cannot be removed.
    expect(screen.queryByRole("button", { name: /^Remove / })).not.toBeInTheDocument();
  });

  it("adds a passkey through the ceremony, with the session's token, and lists it", async () => {
    const api = staffApi({ account: account({ passkeys: [passkey(1, "Laptop")] }) });
    vi.mocked(createPasskey).mockImplementation(async (options) => {
      expect("authorizedFetch" in options).toBe(true);
      const response = await (options as { authorizedFetch: typeof fetch }).authorizedFetch("/admin/v1/account", {
        method: "GET",
      });
      expect(response.status).toBe(200);
      api.state.account = {
        ...api.state.account!,
        passkeys: [...api.state.account!.passkeys, passkey(3, "Security key")],
      };
    });
    const { user, requests } = renderApp("/account", api.handler, { session: SAM });
    await user.click(await screen.findByRole("button", { name: "Add a passkey" }));
    expect(await screen.findByText("Security key")).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Added a passkey.");
    for (const request of requests) expect(request.headers.get("authorization")).toMatch(/^Bearer pst_/);
  });

  it("says why a passkey was not added", async () => {
    vi.mocked(createPasskey).mockRejectedValue(new Error("The authenticator was cancelled."));
    const { user } = renderApp("/account", staffApi({ account: account() }).handler, { session: SAM });
    await user.click(await screen.findByRole("button", { name: "Add a passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "No passkey was added. The authenticator was cancelled.",
    );
  });

  it("Sign out everywhere ends every session and returns to sign-in", async () => {
    const api = staffApi({ account: account() });
    const { user, location } = renderApp("/account", api.handler, { session: SAM });
    await user.click(await screen.findByRole("button", { name: "Sign out everywhere" }));
    expect(await screen.findByRole("heading", { name: "Sign in", level: 1 })).toBeInTheDocument();
    expect(location.current).toBe("/sign-in");
    expect(api.state.signedOutEverywhere).toBe(true);
    expect(screen.getByRole("alert")).toHaveTextContent(SIGNED_OUT_EVERYWHERE_MESSAGE);
  });
});
