import type { Inventory } from "@petstore/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DEMO_CATEGORIES, EMPTY_INVENTORY, fakeCategoriesApi } from "../test/fake-store.js";
import { errorResponse, renderApp, testSession } from "../test/render-app.js";

const ADMIN = testSession("admin", "Ops lead");

const INVENTORY: Inventory = {
  ...EMPTY_INVENTORY,
  total: 12,
  byCategory: [
    { categoryId: 1, name: "Dogs", total: 9, byStatus: { available: 9, pending: 0, sold: 0, none: 0 } },
    { categoryId: 2, name: "Cats", total: 3, byStatus: { available: 3, pending: 0, sold: 0, none: 0 } },
  ],
};

function categoryTable() {
  return screen.getByRole("table", { name: "Categories" });
}

function rowOf(name: string) {
  return within(categoryTable()).getByRole("rowheader", { name }).closest("tr")!;
}

function posts(requests: Request[]) {
  return Promise.all(
    requests
      .filter((request) => request.method === "POST")
      .map(async (request) => ({
        path: new URL(request.url).pathname,
        body: (await request.clone().json()) as unknown,
      })),
  );
}

describe("the Categories page", () => {
  it("lists every category by name, with its id and how many pets it has", async () => {
    renderApp("/categories", fakeCategoriesApi(DEMO_CATEGORIES, INVENTORY).handler, { session: ADMIN });
    expect(await screen.findByRole("heading", { name: "Categories", level: 1 })).toBeInTheDocument();
    const table = await screen.findByRole("table", { name: "Categories" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((header) => header.textContent),
    ).toEqual(["Name", "ID", "Pets", "Actions"]);
    expect(
      within(table)
        .getAllByRole("rowheader")
        .map((header) => header.textContent),
    ).toEqual(["Birds", "Cats", "Dogs", "Fish", "Rabbits"]);
    await waitFor(() =>
      expect(
        within(rowOf("Dogs"))
          .getAllByRole("cell")
          .map((cell) => cell.textContent),
      ).toEqual(["1", "9", "Rename"]),
    );
    expect(within(rowOf("Dogs")).getByRole("link", { name: "9 pets in Dogs" })).toHaveAttribute(
      "href",
      "/pets?categoryId=1",
    );
    expect(within(rowOf("Fish")).getAllByRole("cell")[1]).toHaveTextContent("0");
    expect(within(rowOf("Fish")).getByRole("button", { name: "Rename Fish" })).toBeInTheDocument();
  });

  it("adds a category with the next id, announces it and lists it", async () => {
    const api = fakeCategoriesApi(DEMO_CATEGORIES, INVENTORY);
    const { user, requests } = renderApp("/categories", api.handler, { session: ADMIN });
    const form = await screen.findByRole("form", { name: "Add category" });
    await user.type(within(form).getByLabelText("Name"), " Reptiles ");
    await user.click(within(form).getByRole("button", { name: "Add category" }));

    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Added the category Reptiles (id 6)."));
    expect(await posts(requests)).toEqual([{ path: "/v1/categories", body: { name: "Reptiles" } }]);
    expect(within(form).getByLabelText("Name")).toHaveValue("");
    await waitFor(() =>
      expect(
        within(categoryTable())
          .getAllByRole("rowheader")
          .map((header) => header.textContent),
      ).toContain("Reptiles"),
    );
    expect(within(rowOf("Reptiles")).getAllByRole("cell")[0]).toHaveTextContent("6");
  });

  it("names an id pets already carry", async () => {
    const { user, requests } = renderApp("/categories", fakeCategoriesApi().handler, { session: ADMIN });
    const form = await screen.findByRole("form", { name: "Add category" });
    await user.type(within(form).getByLabelText("Name"), "Ferrets");
    await user.type(within(form).getByLabelText("ID"), "42");
    await user.click(within(form).getByRole("button", { name: "Add category" }));
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Added the category Ferrets (id 42)."));
    expect(await posts(requests)).toEqual([{ path: "/v1/categories", body: { name: "Ferrets", id: 42 } }]);
  });

  it("checks the fields with the contract first, and sends nothing", async () => {
    const { user, requests } = renderApp("/categories", fakeCategoriesApi().handler, { session: ADMIN });
    const form = await screen.findByRole("form", { name: "Add category" });
    await user.type(within(form).getByLabelText("ID"), "0");
    await user.click(within(form).getByRole("button", { name: "Add category" }));
    expect(within(form).getByLabelText("Name")).toHaveAccessibleDescription(
      expect.stringContaining("Name must not be empty"),
    );
    expect(within(form).getByLabelText("Name")).toHaveFocus();
    expect(within(form).getByLabelText("ID")).toHaveAccessibleDescription(
      expect.stringContaining("ID must be at least 1"),
    );
    expect(await posts(requests)).toEqual([]);
  });

  it("shows the API's refusal of a name taken in an alert, keeping what was typed", async () => {
    const { user } = renderApp("/categories", fakeCategoriesApi().handler, { session: ADMIN });
    const form = await screen.findByRole("form", { name: "Add category" });
    await user.type(within(form).getByLabelText("Name"), "dögs");
    await user.click(within(form).getByRole("button", { name: "Add category" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent(
      "The category was not added. A category is named Dogs already.",
    );
    expect(within(form).getByLabelText("Name")).toHaveValue("dögs");
  });

  it("renames a category in its row, and gives the focus back to its button", async () => {
    const { user, requests } = renderApp("/categories", fakeCategoriesApi().handler, { session: ADMIN });
    await screen.findByRole("table", { name: "Categories" });
    await user.click(screen.getByRole("button", { name: "Rename Dogs" }));
    const form = screen.getByRole("form", { name: "Rename Dogs" });
    const field = within(form).getByLabelText("New name");
    expect(field).toHaveValue("Dogs");
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, "Hounds");
    await user.click(within(form).getByRole("button", { name: "Save name" }));

    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Renamed Dogs to Hounds."));
    expect(await posts(requests)).toEqual([{ path: "/v1/categories/1/rename", body: { name: "Hounds" } }]);
    await waitFor(() => expect(screen.getByRole("button", { name: "Rename Hounds" })).toHaveFocus());
    expect(screen.queryByRole("form", { name: /^Rename/ })).not.toBeInTheDocument();
  });

  it("refuses a name another category has with the API's message in an alert; Escape leaves the name as it was", async () => {
    const { user, requests } = renderApp("/categories", fakeCategoriesApi().handler, { session: ADMIN });
    await screen.findByRole("table", { name: "Categories" });
    await user.click(screen.getByRole("button", { name: "Rename Cats" }));
    const form = screen.getByRole("form", { name: "Rename Cats" });
    await user.clear(within(form).getByLabelText("New name"));
    await user.type(within(form).getByLabelText("New name"), "FISH");
    await user.click(within(form).getByRole("button", { name: "Save name" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent(
      "Cats was not renamed. A category is named Fish already.",
    );

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("form", { name: "Rename Cats" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Rename Cats" })).toHaveFocus();
    expect(
      within(categoryTable())
        .getAllByRole("rowheader")
        .map((header) => header.textContent),
    ).toEqual(["Birds", "Cats", "Dogs", "Fish", "Rabbits"]);
    expect(await posts(requests)).toHaveLength(1);
  });

  it("sends nothing for the same name, or an empty one", async () => {
    const { user, requests } = renderApp("/categories", fakeCategoriesApi().handler, { session: ADMIN });
    await screen.findByRole("table", { name: "Categories" });
    await user.click(screen.getByRole("button", { name: "Rename Birds" }));
    const field = screen.getByLabelText("New name");
    await user.clear(field);
    await user.click(screen.getByRole("button", { name: "Save name" }));
    expect(field).toHaveAccessibleDescription("New name must not be empty");
    await user.type(field, " Birds ");
    await user.click(screen.getByRole("button", { name: "Save name" }));
    expect(screen.getByRole("status")).toHaveTextContent("Nothing to save: Birds keeps its name.");
    expect(await posts(requests)).toEqual([]);
  });

  it("says so when there are no categories", async () => {
    renderApp("/categories", fakeCategoriesApi([]).handler, { session: ADMIN });
    expect(await screen.findByText(/No categories yet/)).toBeInTheDocument();
  });

  it("shows a failure to list them with Retry", async () => {
    renderApp("/categories", () => errorResponse(500, "INTERNAL", "Something went wrong on our side."), {
      session: ADMIN,
    });
    const alert = await screen.findByRole("alert", {}, { timeout: 5_000 });
    expect(alert).toHaveTextContent("The categories could not be loaded.");
    expect(within(alert).getByRole("button", { name: "Retry" })).toBeInTheDocument();
  });

  it("is for admins: the navigation offers it to them alone", async () => {
    renderApp("/categories", fakeCategoriesApi().handler, { session: ADMIN });
    const navigation = await screen.findByRole("navigation", { name: "Main" });
    expect(within(navigation).getByRole("link", { name: "Categories" })).toHaveAttribute("aria-current", "page");
  });

  it("tells a key that is not admin it needs one, and asks nothing", async () => {
    const { requests } = renderApp("/categories", fakeCategoriesApi().handler, { session: testSession("write") });
    expect(await screen.findByRole("heading", { name: "Categories", level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/You need an admin key/)).toBeInTheDocument();
    expect(
      within(screen.getByRole("navigation", { name: "Main" })).queryByRole("link", { name: "Categories" }),
    ).not.toBeInTheDocument();
    expect(requests).toEqual([]);
  });
});
