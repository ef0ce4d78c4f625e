import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { errorResponse, jsonResponse, renderApp } from "../test/render-app.js";

describe("the pet page", () => {
  it("reads the pet through listPets, not the deprecated getPet, and shows it", async () => {
    const { requests } = renderApp("/pets/2", () =>
      jsonResponse(200, [{ id: 2, name: "Bella", categoryId: 2, status: "pending" }]),
    );
    expect(await screen.findByRole("heading", { name: "Bella", level: 1 })).toBeInTheDocument();
    expect(screen.getAllByRole("definition").map((value) => value.textContent)).toEqual(["2", "Bella", "2", "pending"]);
    const url = new URL(requests[0]!.url);
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
});
