import type { Pet } from "@petstore/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { changeRequests, fakePetChanges } from "../test/fake-pet-changes.js";
import { DEMO_CATEGORIES } from "../test/fake-store.js";
import { renderApp, testSession } from "../test/render-app.js";

const REX: Pet = { id: 1, name: "Rex", categoryId: 1, status: "available" };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function changeGroup(name = "Rex") {
  return screen.getByRole("group", { name: `Change ${name}` });
}
const buttonNames = (container: HTMLElement) =>
  within(container)
    .getAllByRole("button")
    .map((button) => button.textContent);

describe("changing a pet from its page", () => {
  it("offers the status buttons that apply to its status, Edit and Delete", async () => {
    renderApp("/pets/1", fakePetChanges([REX]).handler);
    await screen.findByRole("heading", { name: "Rex", level: 1 });
    expect(buttonNames(changeGroup())).toEqual(["Reserve", "Mark sold", "Edit", "Delete"]);
  });

  it("Reserve sends a patch that tests the status shown, with an Idempotency-Key, and shows the new status", async () => {
    const store = fakePetChanges([REX], { by: "Ana" });
    const { user, requests } = renderApp("/pets/1", store.handler);
    await user.click(await screen.findByRole("button", { name: "Reserve" }));

    expect(await screen.findByRole("status")).toHaveTextContent("Reserved Rex.");
    await waitFor(() => expect(buttonNames(changeGroup())).toEqual(["Mark sold", "Mark available", "Edit", "Delete"]));
    expect(screen.getAllByRole("definition")[3]).toHaveTextContent("pending");
    const [patch] = await changeRequests(requests);
    expect(patch).toEqual({
      method: "PATCH",
      path: "/v1/pets/1",
      key: expect.stringMatching(UUID),
      body: [
        { op: "test", path: "/status", value: "available" },
        { op: "replace", path: "/status", value: "pending" },
      ],
    });
    // The group keeps the focus when the button pressed has gone; the history has the change.
    expect(changeGroup()).toHaveFocus();
    const history = screen.getByRole("region", { name: "History" });
    expect(await within(history).findByText("Reserved by Ana")).toBeInTheDocument();
  });

  it("tests no status as null", async () => {
    const milo: Pet = { id: 3, name: "Milo", categoryId: 3 };
    const { user, requests } = renderApp("/pets/3", fakePetChanges([milo]).handler);
    await user.click(await screen.findByRole("button", { name: "Mark available" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Marked Milo available.");
    expect((await changeRequests(requests))[0]?.body).toEqual([
      { op: "test", path: "/status", value: null },
      { op: "replace", path: "/status", value: "available" },
    ]);
  });

  it("shows a write session no way out of sold, and an admin one", async () => {
    const sold: Pet = { ...REX, status: "sold" };
    renderApp("/pets/1", fakePetChanges([sold]).handler);
    await screen.findByRole("heading", { name: "Rex", level: 1 });
    expect(buttonNames(changeGroup())).toEqual(["Edit", "Delete"]);
    expect(changeGroup()).toHaveTextContent("Only an admin can return a sold pet.");
  });

  it("lets an admin return a sold pet", async () => {
    renderApp("/pets/1", fakePetChanges([{ ...REX, status: "sold" }]).handler, { session: testSession("admin") });
    await screen.findByRole("heading", { name: "Rex", level: 1 });
    expect(buttonNames(changeGroup())).toEqual(["Reserve", "Mark available", "Edit", "Delete"]);
  });

  it("shows a read session none of the changes, and still the history", async () => {
    const store = fakePetChanges([REX]);
    store.record(1, "pet.created");
    renderApp("/pets/1", store.handler, { session: testSession("read") });
    await screen.findByRole("heading", { name: "Rex", level: 1 });
    expect(screen.queryByRole("group", { name: "Change Rex" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Reserve|Mark|Edit|Delete/ })).not.toBeInTheDocument();
    expect(await screen.findByText("Created by Test key")).toBeInTheDocument();
  });

  it("Edit tests every field it showed and replaces the changed ones", async () => {
    const { user, requests } = renderApp("/pets/1", fakePetChanges([REX]).handler);
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    const form = screen.getByRole("form", { name: "Edit Rex" });
    expect(within(form).getByLabelText("Name")).toHaveFocus();
    // No category is named: the id, in Category ID.
    expect(within(form).getByLabelText("Category ID")).toHaveValue("1");
    expect(within(form).getByLabelText("Status")).toHaveValue("available");
    await user.clear(within(form).getByLabelText("Name"));
    await user.type(within(form).getByLabelText("Name"), "Rex II");
    await user.click(within(form).getByRole("button", { name: "Save changes" }));

    expect(await screen.findByRole("heading", { name: "Rex II", level: 1 })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Saved Rex II.");
    expect(screen.queryByRole("form")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Edit" })).toHaveFocus();
    expect((await changeRequests(requests))[0]?.body).toEqual([
      { op: "test", path: "/name", value: "Rex" },
      { op: "test", path: "/categoryId", value: 1 },
      { op: "test", path: "/status", value: "available" },
      { op: "replace", path: "/name", value: "Rex II" },
    ]);
    expect(await screen.findByText("Renamed from Rex to Rex II by Test key")).toBeInTheDocument();
  });

  it("Edit checks the fields with the contract and sends nothing when nothing changed", async () => {
    const { user, requests } = renderApp("/pets/1", fakePetChanges([REX]).handler);
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    await user.clear(screen.getByLabelText("Category ID"));
    await user.type(screen.getByLabelText("Category ID"), "0");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(screen.getByLabelText("Category ID")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Category ID")).toHaveAccessibleDescription(
      expect.stringContaining("Category ID must be at least 1"),
    );
    expect(screen.getByLabelText("Category ID")).toHaveFocus();

    await user.clear(screen.getByLabelText("Category ID"));
    await user.type(screen.getByLabelText("Category ID"), "1");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(screen.getByRole("status")).toHaveTextContent("Nothing to save");
    expect(await changeRequests(requests)).toEqual([]);
  });

  it("a 409 says someone else changed the pet, with its values now, overwrites nothing, and Reload shows them", async () => {
    const store = fakePetChanges([REX]);
    const { user, requests } = renderApp("/pets/1", store.handler);
    await screen.findByRole("heading", { name: "Rex", level: 1 });
    store.changeBehind(1, { name: "Rex II", status: "sold" });
    await user.click(screen.getByRole("button", { name: "Reserve" }));

    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Someone else changed this pet");
    expect(alert).toHaveTextContent("It is now: name Rex II, category 1, status sold.");
    expect(store.pets.get(1)).toEqual({ ...REX, name: "Rex II", status: "sold" });
    // Only the one patch: nothing is resent after a conflict.
    expect((await changeRequests(requests)).length).toBe(1);
    // The page still shows what staff saw until they reload.
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Rex");

    await user.click(within(alert).getByRole("button", { name: "Reload" }));
    expect(await screen.findByRole("heading", { name: "Rex II", level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.getAllByRole("definition")[3]).toHaveTextContent("sold");
    expect(changeGroup("Rex II")).toHaveFocus();
  });

  it("an edit that meets a conflict keeps the form, and Reload fills it with the values now", async () => {
    const store = fakePetChanges([REX]);
    const { user } = renderApp("/pets/1", store.handler);
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    store.changeBehind(1, { categoryId: 7 });
    await user.clear(screen.getByLabelText("Name"));
    await user.type(screen.getByLabelText("Name"), "Max");
    await user.click(screen.getByRole("button", { name: "Save changes" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("It is now: name Rex, category 7, status available.");
    expect(screen.getByLabelText("Name")).toHaveValue("Max");
    expect(store.pets.get(1)?.name).toBe("Rex");
    await user.click(screen.getByRole("button", { name: "Reload" }));
    await waitFor(() => expect(screen.getByLabelText("Category ID")).toHaveValue("7"));
    expect(screen.getByLabelText("Name")).toHaveValue("Rex");
    expect(screen.getByLabelText("Name")).toHaveFocus();
  });

  it("says why when the API refuses the change", async () => {
    const store = fakePetChanges([{ ...REX, status: "sold" }], { mayReturnSold: false });
    // An admin page over an API that refuses (its scope changed meanwhile, say).
    const { user } = renderApp("/pets/1", store.handler, { session: testSession("admin") });
    await user.click(await screen.findByRole("button", { name: "Mark available" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The change was not saved. Only an admin can return a sold pet",
    );
  });

  it("Delete asks first, goes to the list with Deleted and Undo, and Undo restores the pet", async () => {
    const store = fakePetChanges([REX, { id: 2, name: "Bella", categoryId: 2 }]);
    const { user, requests, location } = renderApp("/pets/1", store.handler);
    await user.click(await screen.findByRole("button", { name: "Delete" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Delete pet" });
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toHaveFocus();
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));

    await waitFor(() => expect(location.current).toBe("/pets"));
    const status = screen.getByRole("status");
    expect(status).toHaveTextContent("Deleted Rex.");
    expect(store.deleted.has(1)).toBe(true);
    await waitFor(() => expect(screen.queryByRole("link", { name: "Rex" })).not.toBeInTheDocument());

    await user.click(within(status).getByRole("button", { name: "Undo" }));
    await waitFor(() => expect(status).toHaveTextContent("Restored Rex."));
    expect(within(status).queryByRole("button", { name: "Undo" })).not.toBeInTheDocument();
    expect(await screen.findByRole("link", { name: "Rex" })).toBeInTheDocument();
    const changes = await changeRequests(requests);
    expect(changes.map(({ method, path }) => `${method} ${path}`)).toEqual([
      "DELETE /v1/pets/1",
      "POST /v1/deleted-pets/1/restore",
    ]);
    expect(changes.every((change) => UUID.test(change.key ?? ""))).toBe(true);
  });

  it("Cancel closes the delete dialog and gives the focus back", async () => {
    const { user, requests } = renderApp("/pets/1", fakePetChanges([REX]).handler);
    await user.click(await screen.findByRole("button", { name: "Delete" }));
    await screen.findByRole("alertdialog", { name: "Delete pet" });
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Delete" })).toHaveFocus();
    expect(await changeRequests(requests)).toEqual([]);
  });

  it("lists the history newest first, in sentences, each with when", async () => {
    const store = fakePetChanges([REX]);
    store.record(1, "pet.created");
    store.record(1, "pet.updated", [{ field: "status", from: "available", to: "sold" }]);
    renderApp("/pets/1", store.handler);
    const history = await screen.findByRole("region", { name: "History" });
    await waitFor(() => expect(within(history).getAllByRole("listitem")).toHaveLength(2));
    const items = within(history).getAllByRole("listitem");
    expect(items[0]).toHaveTextContent(/^Marked sold by Test key/);
    expect(items[1]).toHaveTextContent(/^Created by Test key/);
    expect(items[0]?.querySelector("time")).toHaveAttribute("datetime", store.history.get(1)?.[0]?.at);
  });

  describe("with named categories", () => {
    it("shows the category by name on the page and in the history", async () => {
      const store = fakePetChanges([REX], { categories: DEMO_CATEGORIES });
      store.record(1, "pet.updated", [{ field: "categoryId", from: 7, to: 1 }]);
      renderApp("/pets/1", store.handler);
      await screen.findByRole("heading", { name: "Rex", level: 1 });
      await waitFor(() =>
        expect(screen.getAllByRole("definition").map((value) => value.textContent)).toEqual([
          "1",
          "Rex",
          "Dogs",
          "available",
        ]),
      );
      expect(screen.getAllByRole("term").map((term) => term.textContent)).toEqual(["ID", "Name", "Category", "Status"]);
      const history = screen.getByRole("region", { name: "History" });
      expect(await within(history).findByText("Moved from Category 7 to Dogs by Test key")).toBeInTheDocument();
    });

    it("Edit picks the category by name, and sends its id", async () => {
      const { user, requests } = renderApp("/pets/1", fakePetChanges([REX], { categories: DEMO_CATEGORIES }).handler);
      await waitFor(() => expect(screen.getAllByRole("definition")[2]).toHaveTextContent("Dogs"));
      await user.click(screen.getByRole("button", { name: "Edit" }));
      const form = screen.getByRole("form", { name: "Edit Rex" });
      const category = within(form).getByRole("combobox", { name: "Category" });
      expect(category).toHaveValue("1");
      expect(
        within(category)
          .getAllByRole("option")
          .map((option) => option.textContent),
      ).toEqual(["Birds", "Cats", "Dogs", "Fish", "Rabbits", "Other id…"]);
      expect(within(form).queryByLabelText("Category ID")).not.toBeInTheDocument();
      await user.selectOptions(category, "Birds");
      await user.click(within(form).getByRole("button", { name: "Save changes" }));

      await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Saved Rex."));
      expect((await changeRequests(requests))[0]?.body).toEqual([
        { op: "test", path: "/name", value: "Rex" },
        { op: "test", path: "/categoryId", value: 1 },
        { op: "test", path: "/status", value: "available" },
        { op: "replace", path: "/categoryId", value: 3 },
      ]);
      const history = screen.getByRole("region", { name: "History" });
      expect(await within(history).findByText("Moved from Dogs to Birds by Test key")).toBeInTheDocument();
    });

    it("Edit of a pet whose id no category names shows Other id… and Category ID", async () => {
      const stray: Pet = { ...REX, categoryId: 42 };
      const { user, requests } = renderApp("/pets/1", fakePetChanges([stray], { categories: DEMO_CATEGORIES }).handler);
      await waitFor(() => expect(screen.getAllByRole("definition")[2]).toHaveTextContent("Category 42"));
      await user.click(screen.getByRole("button", { name: "Edit" }));
      const form = screen.getByRole("form", { name: "Edit Rex" });
      expect(within(form).getByRole("combobox", { name: "Category" })).toHaveValue("other");
      expect(within(form).getByRole("option", { name: "Other id…" })).toHaveProperty("selected", true);
      const id = within(form).getByRole("textbox", { name: "Category ID" });
      expect(id).toHaveValue("42");
      await user.clear(id);
      await user.type(id, "43");
      await user.click(within(form).getByRole("button", { name: "Save changes" }));
      await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Saved Rex."));
      expect((await changeRequests(requests))[0]?.body).toContainEqual({
        op: "replace",
        path: "/categoryId",
        value: 43,
      });

      // Choosing a named category hides the field again.
      await user.click(screen.getByRole("button", { name: "Edit" }));
      await user.selectOptions(screen.getByRole("combobox", { name: "Category" }), "Fish");
      expect(screen.queryByLabelText("Category ID")).not.toBeInTheDocument();
    });
  });
});
