import { screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createPasskey } from "../passkeys/passkey-ceremonies.js";
import { INVITATION_TOKEN } from "../test/fake-staff-api.js";
import { errorResponse, jsonResponse, personSession, renderApp } from "../test/render-app.js";
import { INVITATION_UNUSABLE_MESSAGE } from "./InvitationPage.js";

vi.mock("../passkeys/passkey-ceremonies.js", () => ({
  signInWithPasskey: vi.fn(),
  createPasskey: vi.fn(),
}));

const SAM = personSession("write", "Sam Rivera");

/** The invitation lookup, as the API answers it for INVITATION_TOKEN; any other token is unknown (404). */
async function invitations(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === "/admin/v1/invitations/lookup") {
    const { token } = (await request.json()) as { token: string };
    return token === INVITATION_TOKEN
      ? jsonResponse(200, {
          name: "Sam Rivera",
          email: "sam@example.com",
          role: "write",
          expiresAt: "2026-11-26T10:00:00.000Z",
        })
      : errorResponse(404, "NOT_FOUND", "This invitation has expired or was already used.");
  }
  return jsonResponse(200, []);
}

describe("the invitation page", () => {
  beforeEach(() => {
    vi.mocked(createPasskey).mockReset();
  });

  it("welcomes the invited person by name, and takes the token out of the address", async () => {
    const { location, allRequests } = renderApp(`/invite#${INVITATION_TOKEN}`, invitations, { signedIn: false });
    expect(await screen.findByRole("heading", { name: "Welcome, Sam Rivera", level: 1 })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Create a passkey" })).toBeInTheDocument();
    expect(location.current).toBe("/invite");
    // The token went in a body, never in a URL.
    const lookup = allRequests.find((request) => new URL(request.url).pathname === "/admin/v1/invitations/lookup");
    expect(lookup?.method).toBe("POST");
    expect(await lookup!.json()).toEqual({ token: INVITATION_TOKEN });
    for (const request of allRequests) expect(request.url).not.toContain(INVITATION_TOKEN);
  });

  it.each([
    ["a used or expired invitation", `/invite#${"u".repeat(43)}`],
    ["a link without its token", "/invite"],
    ["a malformed token", "/invite#short"],
  ])("%s says so", async (_case, path) => {
    renderApp(path, invitations, { signedIn: false });
    expect(await screen.findByRole("heading", { name: "Welcome", level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole("alert")).toHaveTextContent(INVITATION_UNUSABLE_MESSAGE);
    expect(screen.queryByRole("button", { name: "Create a passkey" })).not.toBeInTheDocument();
  });

  it("creating a passkey signs the person in", async () => {
    const { user, location, session } = renderApp(`/invite#${INVITATION_TOKEN}`, invitations, {
      signedIn: false,
      session: SAM,
    });
    vi.mocked(createPasskey).mockImplementation(async () => {
      session.state.signedInAs = SAM;
    });
    await user.click(await screen.findByRole("button", { name: "Create a passkey" }));
    expect(await screen.findByText("Signed in as Sam Rivera (write)")).toBeInTheDocument();
    // The Overview, where every sign-in lands.
    expect(location.current).toBe("/");
    expect(vi.mocked(createPasskey)).toHaveBeenCalledWith({ invitationToken: INVITATION_TOKEN });
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.length).toBe(0);
  });

  it("says what went wrong with the passkey, and stays", async () => {
    vi.mocked(createPasskey).mockRejectedValue(new Error("Passkeys are not available"));
    const { user, location } = renderApp(`/invite#${INVITATION_TOKEN}`, invitations, { signedIn: false });
    await user.click(await screen.findByRole("button", { name: "Create a passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Passkeys are not available");
    expect(location.current).toBe("/invite");
  });
});
