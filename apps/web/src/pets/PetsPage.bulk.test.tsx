import type { Pet } from "@petstore/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { changeRequests, fakePetChanges } from "../test/fake-pet-changes.js";
import { errorResponse, renderApp, testSession } from "../test/render-app.js";

const PETS: Pet[] = [
  { id: 1, name: "Rex", categoryId: 1, status: "available" },
  { id: 2, name: "Bella", categoryId: 2, status: "pending" },
  { id: 3, name: "Milo", categoryId: 3 },
];

const toolbar = () => screen.getByRole("toolbar", { name: "Selected pets" });
/** The toolbar's code is fetched on the first selection: wait for it. */
const toolbarShown = () => screen.findByRole("toolbar", { name: "Selected pets" });
const select = (name: string) => screen.getByRole("checkbox", { name: `Select ${name}` });

async function renderList(options: Parameters<typeof fakePetChanges>[1] = {}, session = testSession("write")) {
  const store = fakePetChanges(PETS, options);
  const app = renderApp("/pets", store.handler, { session });
  await screen.findByRole("link", { name: "Rex" });
  return { store, ...app };
}

describe("changing several pets from the list", () => {
  it("shows the toolbar only with a selection, and selects all on the page", async () => {
    const { user } = await renderList();
    expect(screen.queryByRole("toolbar")).not.toBeInTheDocument();
    await user.click(select("Rex"));
    expect(await toolbarShown()).toHaveTextContent("1 pet selected");
    expect(
      within(toolbar())
        .getAllByRole("button")
        .map((button) => button.textContent),
    ).toEqual(["Reserve", "Mark sold", "Mark available", "Delete"]);
    const all = screen.getByRole("checkbox", { name: "Select all on this page" });
    expect(all).toHaveProperty("indeterminate", true);
    await user.click(all);
    expect([select("Rex"), select("Bella"), select("Milo")].every((box) => (box as HTMLInputElement).checked)).toBe(
      true,
    );
    expect(toolbar()).toHaveTextContent("3 pets selected");
    await user.click(all);
    expect(screen.queryByRole("toolbar")).not.toBeInTheDocument();
  });

  it("sends one request per pet, each with its own key and a test of the status shown, and says what changed", async () => {
    const { user, requests, store } = await renderList();
    await user.click(select("Rex"));
    await user.click(select("Bella"));
    await user.click(select("Milo"));
    await toolbarShown();
    await user.click(within(toolbar()).getByRole("button", { name: "Reserve" }));

    const status = screen.getByRole("status");
    await waitFor(() => expect(status).toHaveTextContent("Reserved 2 of 3 pets."));
    expect(status).toHaveTextContent("Bella was already pending.");
    expect(status.contains(document.activeElement)).toBe(true);
    const patches = await changeRequests(requests);
    expect(patches.map(({ path, body }) => ({ path, body }))).toEqual([
      {
        path: "/v1/pets/1",
        body: [
          { op: "test", path: "/status", value: "available" },
          { op: "replace", path: "/status", value: "pending" },
        ],
      },
      {
        path: "/v1/pets/3",
        body: [
          { op: "test", path: "/status", value: null },
          { op: "replace", path: "/status", value: "pending" },
        ],
      },
    ]);
    expect(new Set(patches.map((patch) => patch.key)).size).toBe(2);
    expect(store.pets.get(1)?.status).toBe("pending");
    // The selection ends with the run.
    expect(screen.queryByRole("toolbar")).not.toBeInTheDocument();
  });

  it("names each pet refused and why, and Undo reverts only the ones changed", async () => {
    const { user, requests, store } = await renderList({}, testSession("admin"));
    store.changeBehind(3, { status: "sold" });
    await user.click(select("Rex"));
    await user.click(select("Milo"));
    await toolbarShown();
    await user.click(within(toolbar()).getByRole("button", { name: "Mark available" }));

    const status = screen.getByRole("status");
    await waitFor(() => expect(status).toHaveTextContent("Marked 0 of 2 pets available."));
    expect(status).toHaveTextContent("Rex was already available.");
    expect(status).toHaveTextContent("Milo was not changed: status is sold, not none.");
    expect(within(status).queryByRole("button", { name: "Undo" })).not.toBeInTheDocument();

    await user.click(select("Bella"));
    await toolbarShown();
    await user.click(within(toolbar()).getByRole("button", { name: "Mark available" }));
    await waitFor(() => expect(status).toHaveTextContent("Marked 1 pet available."));
    await user.click(within(status).getByRole("button", { name: "Undo" }));
    await waitFor(() => expect(status).toHaveTextContent("Undid the change to 1 pet."));
    expect(store.pets.get(2)?.status).toBe("pending");
    const undo = (await changeRequests(requests)).at(-1);
    expect(undo?.body).toEqual([
      { op: "test", path: "/status", value: "available" },
      { op: "replace", path: "/status", value: "pending" },
    ]);
  });

  it("asks before marking pets sold; after a sale by a write session it says only an admin can return them", async () => {
    const { user, store } = await renderList({ mayReturnSold: false });
    await user.click(select("Rex"));
    await user.click(select("Bella"));
    await toolbarShown();
    await user.click(within(toolbar()).getByRole("button", { name: "Mark sold" }));
    const dialog = screen.getByRole("alertdialog", { name: "Mark 2 pets sold" });
    expect(dialog).toHaveTextContent("Rex and Bella will be marked sold.");
    await user.click(within(dialog).getByRole("button", { name: "Mark sold" }));

    const status = screen.getByRole("status");
    await waitFor(() => expect(status).toHaveTextContent("Marked 2 pets sold."));
    expect(status).toHaveTextContent("Only an admin can return a sold pet.");
    expect(within(status).queryByRole("button", { name: "Undo" })).not.toBeInTheDocument();
    expect(store.pets.get(2)?.status).toBe("sold");
  });

  it("offers an admin Undo after a sale", async () => {
    const { user, store } = await renderList({}, testSession("admin"));
    await user.click(select("Rex"));
    await toolbarShown();
    await user.click(within(toolbar()).getByRole("button", { name: "Mark sold" }));
    await user.click(
      within(screen.getByRole("alertdialog", { name: "Mark 1 pet sold" })).getByRole("button", { name: "Mark sold" }),
    );
    const status = screen.getByRole("status");
    await waitFor(() => expect(status).toHaveTextContent("Marked 1 pet sold."));
    await user.click(within(status).getByRole("button", { name: "Undo" }));
    await waitFor(() => expect(status).toHaveTextContent("Undid the change to 1 pet."));
    expect(store.pets.get(1)?.status).toBe("available");
  });

  it("asks before deleting, deletes each pet, and Undo restores them", async () => {
    const { user, requests, store } = await renderList();
    await user.click(select("Rex"));
    await user.click(select("Milo"));
    await toolbarShown();
    await user.click(within(toolbar()).getByRole("button", { name: "Delete" }));
    const dialog = screen.getByRole("alertdialog", { name: "Delete 2 pets" });
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));

    const status = screen.getByRole("status");
    await waitFor(() => expect(status).toHaveTextContent("Deleted 2 pets."));
    await waitFor(() => expect(screen.queryByRole("link", { name: "Rex" })).not.toBeInTheDocument());
    await user.click(within(status).getByRole("button", { name: "Undo" }));
    await waitFor(() => expect(status).toHaveTextContent("Restored 2 pets."));
    expect([...store.pets.keys()].sort()).toEqual([1, 2, 3]);
    expect(await screen.findByRole("link", { name: "Milo" })).toBeInTheDocument();
    const sent = await changeRequests(requests);
    expect(sent.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(
      [
        "DELETE /v1/pets/1",
        "DELETE /v1/pets/3",
        "POST /v1/deleted-pets/1/restore",
        "POST /v1/deleted-pets/3/restore",
      ].sort(),
    );
    expect(new Set(sent.map((request) => request.key)).size).toBe(4);
  });

  it("resends a request that met a fault with the same key", async () => {
    let faults = 0;
    const { user, requests } = await renderList({
      before: (request) =>
        request.method === "PATCH" && faults++ === 0
          ? errorResponse(503, "UNAVAILABLE", "The database is not reachable.")
          : undefined,
    });
    await user.click(select("Rex"));
    await toolbarShown();
    await user.click(within(toolbar()).getByRole("button", { name: "Reserve" }));
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Reserved 1 pet."));
    const keys = (await changeRequests(requests)).map((request) => request.key);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it("gives a read session no checkboxes and no toolbar", async () => {
    await renderList({}, testSession("read"));
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
    expect(screen.queryByRole("toolbar")).not.toBeInTheDocument();
  });
});
