import type { Pet } from "@petstore/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakePetChanges } from "../test/fake-pet-changes.js";
import { jsonResponse, renderApp, testSession } from "../test/render-app.js";

const REX: Pet = { id: 1, name: "Rex", categoryId: 1, status: "available" };
const BELLA: Pet = { id: 2, name: "Bella", categoryId: 2 };

function rows() {
  return within(screen.getByRole("table", { name: "Recently deleted" }))
    .getAllByRole("row")
    .filter((row) => within(row).queryByRole("rowheader") !== null);
}

async function deletedStore() {
  const store = fakePetChanges([REX, BELLA], { by: "Ana" });
  // Deleted through the fake API, as the app would: Rex first, then Bella.
  for (const id of [1, 2]) await store.handler(new Request(`http://localhost/v1/pets/${id}`, { method: "DELETE" }));
  return store;
}

describe("Recently deleted", () => {
  it("lists the deleted pets, latest deletion first: name, when, by whom, when purged, and Restore", async () => {
    const store = await deletedStore();
    renderApp("/pets/deleted", store.handler);
    expect(await screen.findByRole("heading", { name: "Recently deleted", level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(2));
    const table = screen.getByRole("table", { name: "Recently deleted" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((header) => header.textContent),
    ).toEqual(["Name", "Deleted", "By", "Purged on", "Actions"]);
    const [bella, rex] = rows();
    expect(within(bella!).getByRole("rowheader")).toHaveTextContent("Bella");
    expect(within(rex!).getAllByRole("cell")[1]).toHaveTextContent("Ana");
    expect(within(rex!).getAllByRole("cell")[2]?.querySelector("time")).toHaveAttribute(
      "datetime",
      store.deleted.get(1)?.purgeAt,
    );
    expect(within(rex!).getByRole("button", { name: "Restore" })).toHaveAccessibleDescription("Rex");
  });

  it("Restore brings the pet back and says so", async () => {
    const store = await deletedStore();
    const { user } = renderApp("/pets/deleted", store.handler);
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(within(rows()[1]!).getByRole("button", { name: "Restore" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Restored Rex.");
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(store.pets.get(1)).toEqual(REX);
    expect(screen.getByRole("table", { name: "Recently deleted" })).toHaveFocus();
  });

  it("says so when nothing was deleted", async () => {
    renderApp("/pets/deleted", () => jsonResponse(200, []));
    expect(await screen.findByText("No pets have been deleted in the last 30 days.")).toBeInTheDocument();
  });

  it("is in the navigation for write sessions, and refused to read sessions", async () => {
    renderApp("/pets/deleted", () => jsonResponse(200, []), { session: testSession("read") });
    expect(await screen.findByText("This key can only read pets.")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Recently deleted" })).not.toBeInTheDocument();
  });
});
