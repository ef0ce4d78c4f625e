import type { Pet } from "@petstore/contract";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, renderApp } from "../test/render-app.js";
import { petsPageTitle } from "./PetsPage.js";

const EMILE: Pet = { id: 4, name: "Émile", categoryId: 1, status: "sold" };

const listRequests = (requests: Request[]) =>
  requests.map((request) => new URL(request.url)).filter((url) => url.pathname === "/v1/pets");

describe("Search by name on the pets list", () => {
  it("searches once typing pauses, not per keystroke, and keeps the search in the URL with the status", async () => {
    const { requests, location } = renderApp("/pets?status=sold", (request) =>
      jsonResponse(200, new URL(request.url).searchParams.get("name") ? [EMILE] : []),
    );
    const search = await screen.findByRole("searchbox", { name: "Search by name" });
    await waitFor(() => expect(listRequests(requests)).toHaveLength(1));
    // Three keystrokes within the pause: one search, for the whole text.
    for (const value of ["e", "em", "emi"]) fireEvent.change(search, { target: { value } });
    // The search waits for the pause (SEARCH_DEBOUNCE_MS) first: more than findBy's default second on a busy machine.
    await screen.findByRole("link", { name: "Émile" }, { timeout: 5_000 });
    expect(location.current).toBe("/pets?name=emi&status=sold&limit=20");
    const searches = listRequests(requests).filter((url) => url.searchParams.has("name"));
    expect(searches.map((url) => Object.fromEntries(url.searchParams))).toEqual([
      { limit: "20", status: "sold", name: "emi", count: "true" },
    ]);
    expect(document.title).toBe("Pets: name “emi”, sold · Petstore admin");
  });

  it("keeps what is typed across a search that ran at a pause after a space", async () => {
    const { location } = renderApp("/pets", () => jsonResponse(200, []));
    const search = await screen.findByRole("searchbox", { name: "Search by name" });
    fireEvent.change(search, { target: { value: "bella " } });
    await waitFor(() => expect(location.current).toBe("/pets?name=bella&limit=20"), { timeout: 5_000 });
    expect(search).toHaveValue("bella ");
    fireEvent.change(search, { target: { value: "bella j" } });
    await waitFor(() => expect(location.current).toBe("/pets?name=bella+j&limit=20"), { timeout: 5_000 });
    expect(search).toHaveValue("bella j");
  });

  it("keeps keys typed while a search it ran is on its way to the URL (a slow machine)", async () => {
    const { location } = renderApp("/pets", () => jsonResponse(200, []));
    const search = await screen.findByRole("searchbox", { name: "Search by name" });
    fireEvent.change(search, { target: { value: "re" } });
    // The search for "re" and the next key land in one render, as on a machine that stalled between them.
    act(() => {
      fireEvent.submit(search.closest("form")!);
      fireEvent.change(search, { target: { value: "rex" } });
    });
    expect(location.current).toBe("/pets?name=re&limit=20");
    expect(search).toHaveValue("rex");
    await waitFor(() => expect(location.current).toBe("/pets?name=rex&limit=20"), { timeout: 5_000 });
    expect(search).toHaveValue("rex");
  });

  it("fills the field from the URL, and says when nothing matches, naming the search", async () => {
    renderApp("/pets?name=zz%25&status=pending", () => jsonResponse(200, []));
    expect(await screen.findByText("No pending pets have a name with a word starting with “zz%”.")).toBeInTheDocument();
    expect(screen.getByRole("searchbox", { name: "Search by name" })).toHaveValue("zz%");
    expect(screen.getByRole("link", { name: "Show all pets" })).toHaveAttribute("href", "/pets?limit=20");
  });

  it("refuses what the contract refuses beside the field, and sends nothing", async () => {
    const { requests, user } = renderApp("/pets", () => jsonResponse(200, []));
    const search = await screen.findByRole("searchbox", { name: "Search by name" });
    await waitFor(() => expect(listRequests(requests)).toHaveLength(1));
    await user.type(search, "a".repeat(101) + "{Enter}");
    expect(search).toHaveAccessibleDescription("name must be at most 100 characters");
    expect(listRequests(requests)).toHaveLength(1);
  });

  it("clearing the field clears the search", async () => {
    const { user, location } = renderApp("/pets?name=rex", () => jsonResponse(200, []));
    const search = await screen.findByRole("searchbox", { name: "Search by name" });
    await user.clear(search);
    await user.type(search, "{Enter}");
    expect(location.current).toBe("/pets?limit=20");
  });

  it("names the filters in the tab title", () => {
    expect(petsPageTitle({})).toBe("Pets");
    expect(petsPageTitle({ status: "sold" })).toBe("Pets: sold");
    expect(petsPageTitle({ name: "rex" })).toBe("Pets: name “rex”");
  });
});

describe("Export CSV", () => {
  it("shows Export CSV above the list", async () => {
    renderApp("/pets", () => jsonResponse(200, [EMILE]));
    await screen.findByRole("link", { name: "Émile" });
    expect(screen.getByRole("button", { name: "Export CSV" })).toBeEnabled();
  });
});
