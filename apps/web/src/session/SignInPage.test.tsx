import { cleanup, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { errorResponse, jsonResponse, renderApp, testSession } from "../test/render-app.js";

const GOOD_KEY = "dev-petstore-key";
const FRONT_DESK = testSession("read", "Front desk");

function api(request: Request): Response {
  if (request.headers.get("authorization") !== `Bearer ${GOOD_KEY}`) return errorResponse(401, "UNAUTHORIZED", "Invalid API key.");
  return new URL(request.url).pathname === "/admin/v1/session" ? jsonResponse(200, FRONT_DESK) : jsonResponse(200, []);
}

describe("sign-in", () => {
  it("sends visitors who are not signed in to sign-in", async () => {
    const { location, requests } = renderApp("/pets", api, { signedIn: false });
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(location.current).toBe("/sign-in");
    expect(requests).toEqual([]);
  });

  it("refuses a key the API refuses, with an alert, and stays", async () => {
    const { user, location } = renderApp("/sign-in", api, { signedIn: false });
    await user.type(screen.getByLabelText("API key"), "wrong-key");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("That API key was refused.");
    expect(location.current).toBe("/sign-in");
    expect(sessionStorage.length).toBe(0);
  });

  it("says when to try again after too many refused keys (429)", async () => {
    const { user, location } = renderApp(
      "/sign-in",
      () =>
        errorResponse(429, "RATE_LIMITED", "Too many requests with a missing or invalid API key from this address; retry after 42 seconds.", undefined, {
          "Retry-After": "42",
        }),
      { signedIn: false },
    );
    await user.type(screen.getByLabelText("API key"), GOOD_KEY);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Too many requests. Try again in 42 seconds.");
    expect(location.current).toBe("/sign-in");
    expect(sessionStorage.length).toBe(0);
  });

  it("asks for a key before asking the API", async () => {
    const { user, requests } = renderApp("/sign-in", api, { signedIn: false });
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(screen.getByLabelText("API key")).toHaveAccessibleDescription("Enter your API key.");
    expect(requests).toEqual([]);
  });

  it("keeps an accepted key for the tab and goes back to the page first asked for", async () => {
    const { user, location } = renderApp("/pets?status=sold", api, { signedIn: false });
    await user.type(await screen.findByLabelText("API key"), GOOD_KEY);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("heading", { name: "Pets" })).toBeInTheDocument();
    expect(location.current).toBe("/pets?status=sold");
    expect(sessionStorage.getItem("petstore.apiKey")).toBe(GOOD_KEY);
    expect(JSON.parse(sessionStorage.getItem("petstore.session") ?? "null")).toEqual(FRONT_DESK);
  });

  it("asks the API who the key is and says so in the header, on every page, after a reload too", async () => {
    const { user, requests } = renderApp("/pets", api, { signedIn: false });
    await user.type(await screen.findByLabelText("API key"), GOOD_KEY);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("Signed in as Front desk (read)")).toBeInTheDocument();
    const asked = new URL(requests[0]!.url);
    expect(asked.pathname).toBe("/admin/v1/session");
    expect(requests[0]!.headers.get("authorization")).toBe(`Bearer ${GOOD_KEY}`);
    cleanup();

    // A reload: the tab's key and session are read back, without asking again.
    const reloaded = renderApp("/pets/1", api, { signedIn: false });
    expect(await screen.findByText("Signed in as Front desk (read)")).toBeInTheDocument();
    expect(reloaded.requests.map((request) => new URL(request.url).pathname)).not.toContain("/admin/v1/session");
  });

  it("signs out from any signed-in page", async () => {
    const { user, location } = renderApp("/pets/new", api);
    await user.click(await screen.findByRole("button", { name: "Sign out" }));
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(location.current).toBe("/sign-in");
    expect(sessionStorage.length).toBe(0);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("after a sign-out, whoever signs in next starts at the pets list, not on the page the last person left", async () => {
    const { user, location } = renderApp("/pets/new", api);
    await user.click(await screen.findByRole("button", { name: "Sign out" }));
    await user.type(await screen.findByLabelText("API key"), GOOD_KEY);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("heading", { name: "Pets" })).toBeInTheDocument();
    expect(location.current).toBe("/pets");
  });
});
