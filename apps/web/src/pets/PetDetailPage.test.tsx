import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, renderApp } from "../test/render-app.js";

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

  it.each(["abc", "0", "7.0", "9007199254740992"])(
    "is not found, without asking the API, for the id %j the contract refuses",
    async (id) => {
      const { requests } = renderApp(`/pets/${id}`, () => jsonResponse(200, []));
      expect(await screen.findByRole("heading", { name: "Pet not found", level: 1 })).toBeInTheDocument();
      expect(requests).toEqual([]);
    },
  );
});
