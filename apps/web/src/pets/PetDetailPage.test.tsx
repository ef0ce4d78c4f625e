import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { withCategories } from "../test/fake-store.js";
import { errorResponse, jsonResponse, renderApp, testSession } from "../test/render-app.js";

const BELLA = { id: 2, name: "Bella", categoryId: 2, status: "pending" };

describe("the pet page", () => {
  it("reads the pet through listPets, not the deprecated getPet, and shows it", async () => {
    const { requests } = renderApp(
      "/pets/2",
      withCategories(() => jsonResponse(200, [{ id: 2, name: "Bella", categoryId: 2, status: "pending" }])),
    );
    expect(await screen.findByRole("heading", { name: "Bella", level: 1 })).toBeInTheDocument();
    // The category by its name.
    await waitFor(() =>
      expect(screen.getAllByRole("definition").map((value) => value.textContent)).toEqual([
        "2",
        "Bella",
        "Cats",
        "pending",
      ]),
    );
    const url = new URL(requests.find((request) => new URL(request.url).pathname === "/v1/pets")!.url);
    expect(`${url.pathname}${url.search}`).toBe("/v1/pets?after=1&limit=1");
  });

  it("is not found when the API has no pet with that id", async () => {
    // The first pet after id 41 is a different one: 42 does not exist.
    renderApp("/pets/42", () => jsonResponse(200, [{ id: 50, name: "Later", categoryId: 1 }]));
    expect(await screen.findByRole("heading", { name: "Pet not found", level: 1 })).toBeInTheDocument();
    expect(screen.getByText("There is no pet with id 42.")).toBeInTheDocument();
  });

  it("waits out a database outage on its own, saying so, then shows the pet", async () => {
    let answers = 0;
    renderApp("/pets/2", () =>
      answers++ === 0
        ? errorResponse(503, "UNAVAILABLE", "The database is not reachable.", undefined, { "Retry-After": "1" })
        : jsonResponse(200, [{ id: 2, name: "Bella", categoryId: 2 }]),
    );
    expect(await screen.findByRole("alert")).toHaveTextContent("The store's database is unavailable. Retrying…");
    await waitFor(() => expect(screen.getByRole("heading", { name: "Bella", level: 1 })).toBeInTheDocument(), {
      timeout: 3000,
    });
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it.each(["abc", "0", "7.0", "9007199254740992"])(
    "is not found, without asking the API, for the id %j the contract refuses",
    async (id) => {
      const { requests } = renderApp(`/pets/${id}`, () => jsonResponse(200, []));
      expect(await screen.findByRole("heading", { name: "Pet not found", level: 1 })).toBeInTheDocument();
      expect(requests).toEqual([]);
    },
  );

  it("tells an admin key who added the pet and when, from its pet.created event", async () => {
    const added = {
      id: 5,
      at: "2026-11-24T09:30:00.000Z",
      action: "pet.created",
      actor: { keyId: "4", staffId: null, name: "Front desk" },
      target: { type: "pet", id: 2, label: "Bella" },
      detail: null,
      requestId: "r-5",
      clientAddress: "127.0.0.1",
    };
    const { requests } = renderApp(
      "/pets/2",
      (request) => jsonResponse(200, new URL(request.url).pathname === "/admin/v1/audit-events" ? [added] : [BELLA]),
      { session: testSession("admin") },
    );
    expect(await screen.findByText(/^Added by Front desk on/)).toBeInTheDocument();
    expect(screen.getByText(/^Added by/).querySelector("time")).toHaveAttribute("datetime", added.at);
    const asked = requests
      .map((request) => new URL(request.url))
      .find((url) => url.pathname === "/admin/v1/audit-events");
    expect(Object.fromEntries(asked!.searchParams)).toEqual({
      action: "pet.created",
      targetType: "pet",
      targetId: "2",
      limit: "1",
    });
  });

  it("says so when no event records who added the pet", async () => {
    renderApp(
      "/pets/2",
      (request) => jsonResponse(200, new URL(request.url).pathname === "/admin/v1/audit-events" ? [] : [BELLA]),
      {
        session: testSession("admin"),
      },
    );
    expect(await screen.findByText(/Who added this pet is not recorded/)).toBeInTheDocument();
  });

  it.each(["read", "write"] as const)(
    "shows a %s key nothing of who added the pet, and does not ask",
    async (scope) => {
      const { requests } = renderApp("/pets/2", () => jsonResponse(200, [BELLA]), { session: testSession(scope) });
      expect(await screen.findByRole("heading", { name: "Bella", level: 1 })).toBeInTheDocument();
      expect(screen.queryByText(/Added by|added this pet/)).not.toBeInTheDocument();
      expect(requests.map((request) => new URL(request.url).pathname)).not.toContain("/admin/v1/audit-events");
    },
  );
});
