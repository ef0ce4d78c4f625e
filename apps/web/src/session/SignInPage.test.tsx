import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { errorResponse, jsonResponse, renderApp } from "../test/render-app.js";

const GOOD_KEY = "dev-petstore-key";

function api(request: Request): Response {
  return request.headers.get("authorization") === `Bearer ${GOOD_KEY}`
    ? jsonResponse(200, [])
    : errorResponse(401, "UNAUTHORIZED", "Invalid API key.");
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
    expect(Object.values(sessionStorage)).toEqual([GOOD_KEY]);
  });

  it("signs out from any signed-in page", async () => {
    const { user, location } = renderApp("/pets/new", api);
    await user.click(await screen.findByRole("button", { name: "Sign out" }));
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(location.current).toBe("/sign-in");
    expect(sessionStorage.length).toBe(0);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
