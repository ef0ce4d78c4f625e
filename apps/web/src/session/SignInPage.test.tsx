import { cleanup, screen, waitFor } from "@testing-library/react";
import { SIGNED_IN_COOKIE_NAME } from "@petstore/contract";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { signInWithPasskey } from "../passkeys/passkey-ceremonies.js";
import {
  errorResponse,
  jsonResponse,
  personSession,
  renderApp,
  TEST_API_KEY,
  testSession,
} from "../test/render-app.js";
import { withCategories } from "../test/fake-store.js";
import { KEY_NOT_ACCEPTED_MESSAGE, SIGNED_OUT_MESSAGE } from "./SignInPage.js";
import { NO_ROLE_MESSAGE, SSO_RETRY_MESSAGE } from "./sign-in-options.js";

vi.mock("../passkeys/passkey-ceremonies.js", () => ({
  signInWithPasskey: vi.fn(),
  createPasskey: vi.fn(),
}));

const FRONT_DESK = testSession("read", "Front desk");
const noPets = () => jsonResponse(200, []);

function expectNothingStored() {
  expect(sessionStorage.length).toBe(0);
  expect(localStorage.length).toBe(0);
}

const pathsOf = (requests: Request[]) =>
  requests.map((request) => `${request.method} ${new URL(request.url).pathname}`);

describe("sign-in", () => {
  beforeEach(() => {
    vi.mocked(signInWithPasskey).mockReset();
  });

  it("sends visitors without a session to sign-in, after asking the API for a token once", async () => {
    const { location, requests, allRequests } = renderApp("/pets", noPets, { signedIn: false });
    expect(await screen.findByRole("heading", { name: "Sign in", level: 1 })).toBeInTheDocument();
    expect(location.current).toBe("/sign-in");
    expect(requests).toEqual([]);
    expect(pathsOf(allRequests)).toEqual(["POST /admin/v1/session/token"]);
    // No session is the usual case: no alert.
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("a browser that never signed in (no petstore-signed-in cookie) sees sign-in at once, without asking: no 401", async () => {
    document.cookie = `${SIGNED_IN_COOKIE_NAME}=; Path=/; Max-Age=0`;
    const { location, allRequests } = renderApp("/pets", noPets, { signedIn: false });
    // In the first render: no "Checking whether this browser is signed in…" that then changes the page's shape.
    expect(screen.getByRole("heading", { name: "Sign in", level: 1 })).toBeInTheDocument();
    expect(screen.getByLabelText("API key")).toBeInTheDocument();
    expect(location.current).toBe("/sign-in");
    expect(allRequests).toEqual([]);
  });

  it("forgets the signed-in cookie when the API says the session is over, so the next load does not ask", async () => {
    renderApp("/pets", noPets, { signedIn: false });
    expect(await screen.findByLabelText("API key")).toBeInTheDocument();
    expect(document.cookie).not.toContain(SIGNED_IN_COOKIE_NAME);
  });

  it("offers a passkey, and an API key under its own heading; no single sign-on unless configured", async () => {
    renderApp("/sign-in", noPets, { signedIn: false });
    expect(await screen.findByRole("button", { name: "Sign in with a passkey" })).toBeInTheDocument();
    const keySection = screen.getByRole("heading", { name: "Sign in with an API key", level: 2 }).closest("section");
    expect(keySection).toContainElement(screen.getByLabelText("API key"));
    expect(screen.getByRole("button", { name: "Sign in" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /^Sign in with / })).not.toBeInTheDocument();
  });

  it("offers single sign-on by its name when configured: a link to the API's start", async () => {
    renderApp("/sign-in", noPets, {
      signedIn: false,
      signInOptions: { passkeys: true, singleSignOn: { displayName: "Acme Workspace" } },
    });
    const link = await screen.findByRole("link", { name: "Sign in with Acme Workspace" });
    expect(link).toHaveAttribute("href", "/admin/v1/sso/start");
  });

  it("offers only the API key when the server has passkeys off", async () => {
    renderApp("/sign-in", noPets, { signedIn: false, signInOptions: { passkeys: false, singleSignOn: null } });
    expect(await screen.findByLabelText("API key")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Sign in with a passkey" })).not.toBeInTheDocument();
  });

  it.each([
    ["no-role", NO_ROLE_MESSAGE],
    ["disabled", "Your account is disabled. Ask an admin of this store."],
    ["account-exists", "An account with this email already exists. Sign in with your passkey."],
    ["state-mismatch", SSO_RETRY_MESSAGE],
    ["toString", SSO_RETRY_MESSAGE],
    ["Your bank needs you to call 0800 000 000", SSO_RETRY_MESSAGE],
  ])("says why single sign-on refused (?error=%s), in the app's words only", async (error, message) => {
    renderApp(`/sign-in?error=${encodeURIComponent(error)}`, noPets, { signedIn: false });
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
  });

  it("refuses a key the API refuses, with an alert, and stays; nothing is stored", async () => {
    const { user, location } = renderApp("/sign-in", noPets, { signedIn: false });
    await user.type(await screen.findByLabelText("API key"), "wrong-key");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(KEY_NOT_ACCEPTED_MESSAGE);
    expect(location.current).toBe("/sign-in");
    expectNothingStored();
  });

  it("says when to try again after too many refused keys (429)", async () => {
    const { user, location } = renderApp("/sign-in", noPets, { signedIn: false });
    await screen.findByLabelText("API key");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        errorResponse(
          429,
          "RATE_LIMITED",
          "Too many requests with a missing or invalid API key from this address; retry after 42 seconds.",
          undefined,
          {
            "Retry-After": "42",
          },
        ),
      ),
    );
    await user.type(await screen.findByLabelText("API key"), TEST_API_KEY);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Too many requests. Try again in 42 seconds.");
    expect(location.current).toBe("/sign-in");
    expectNothingStored();
  });

  it("asks for a key before asking the API", async () => {
    const { user, allRequests } = renderApp("/sign-in", noPets, { signedIn: false });
    await user.click(await screen.findByRole("button", { name: "Sign in" }));
    expect(screen.getByLabelText("API key")).toHaveAccessibleDescription("Enter your API key.");
    expect(pathsOf(allRequests)).toEqual(["POST /admin/v1/session/token"]);
  });

  it("starts a cookie session with the key, keeps no secret, and goes back to the page first asked for", async () => {
    const { user, location, allRequests, requests } = renderApp("/pets?status=sold", noPets, {
      signedIn: false,
      session: FRONT_DESK,
    });
    await user.type(await screen.findByLabelText("API key"), TEST_API_KEY);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("heading", { name: "Pets" })).toBeInTheDocument();
    expect(location.current).toBe("/pets?status=sold");
    expect(await screen.findByText("Signed in as Front desk (read)")).toBeInTheDocument();
    expectNothingStored();

    // The key went once, to session/start, as a bearer; every later request carries the session's token.
    const start = allRequests.find((request) => new URL(request.url).pathname === "/admin/v1/session/start");
    expect(start?.method).toBe("POST");
    expect(start?.headers.get("authorization")).toBe(`Bearer ${TEST_API_KEY}`);
    const keyUses = allRequests.filter((request) => request.headers.get("authorization")?.includes(TEST_API_KEY));
    expect(keyUses).toEqual([start]);
    await waitFor(() => expect(requests.length).toBeGreaterThan(0));
    for (const request of requests) expect(request.headers.get("authorization")).toMatch(/^Bearer pst_/);
  });

  it("a new tab or a reload of a browser with a session needs no sign-in", async () => {
    const { allRequests } = renderApp("/pets/new", noPets, { session: FRONT_DESK, checkOnLoad: true });
    expect(await screen.findByText("Signed in as Front desk (read)")).toBeInTheDocument();
    expect(pathsOf(allRequests).slice(0, 2)).toEqual(["POST /admin/v1/session/token", "GET /admin/v1/session"]);
    expect(screen.queryByLabelText("API key")).not.toBeInTheDocument();
  });

  it("signs in with a passkey: the ceremony sets the cookie, the app asks who it is", async () => {
    const sam = personSession("write", "Sam Rivera");
    const { user, location, session } = renderApp("/sign-in", noPets, { signedIn: false, session: sam });
    vi.mocked(signInWithPasskey).mockImplementation(async () => {
      session.state.signedInAs = sam;
    });
    await user.click(await screen.findByRole("button", { name: "Sign in with a passkey" }));
    expect(await screen.findByText("Signed in as Sam Rivera (write)")).toBeInTheDocument();
    // The Overview.
    expect(location.current).toBe("/");
    expectNothingStored();
  });

  it("shows what went wrong with a passkey, and stays", async () => {
    const { user, location } = renderApp("/sign-in", noPets, { signedIn: false });
    vi.mocked(signInWithPasskey).mockRejectedValue(new Error("The passkey was not recognised."));
    await user.click(await screen.findByRole("button", { name: "Sign in with a passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The passkey was not recognised.");
    expect(location.current).toBe("/sign-in");
  });

  it("signs out on the server from any signed-in page, and drops the token", async () => {
    const { user, location, session, allRequests } = renderApp("/pets/new", noPets);
    await user.click(await screen.findByRole("button", { name: "Sign out" }));
    expect(await screen.findByRole("heading", { name: "Sign in", level: 1 })).toBeInTheDocument();
    expect(location.current).toBe("/sign-in");
    await waitFor(() => expect(session.state.signOuts).toBe(1));
    const signOut = allRequests.find((request) => new URL(request.url).pathname === "/admin/v1/session/sign-out");
    expect(signOut?.headers.get("authorization")).toBeNull();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    // It says it is done, as news, not as a fault.
    expect(screen.getByRole("status")).toHaveTextContent(SIGNED_OUT_MESSAGE);
    expectNothingStored();
  });

  it("after a sign-out, whoever signs in next starts at the Overview, not on the page the last person left", async () => {
    const { user, location } = renderApp("/pets/new", withCategories(noPets));
    await user.click(await screen.findByRole("button", { name: "Sign out" }));
    await user.type(await screen.findByLabelText("API key"), TEST_API_KEY);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("heading", { name: "Overview", level: 1 })).toBeInTheDocument();
    expect(location.current).toBe("/");
  });

  it("a disabled person is sent back to sign-in with the API's reason at their next action", async () => {
    const { user, location, session } = renderApp("/pets", noPets, { session: personSession("write", "Sam Rivera") });
    expect(await screen.findByText("Signed in as Sam Rivera (write)")).toBeInTheDocument();
    session.end("Your account was disabled by an admin.");
    await user.click(screen.getByRole("link", { name: "New pet" }));
    await user.type(await screen.findByLabelText("Name"), "Rex");
    await user.type(screen.getByLabelText("Category ID"), "1");
    await user.click(screen.getByRole("button", { name: "Add pet" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Your account was disabled by an admin.");
    expect(location.current).toBe("/sign-in");
    cleanup();
  });
});
