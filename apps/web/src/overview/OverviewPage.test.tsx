import type { Inventory } from "@petstore/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { petListRequests, withCategories } from "../test/fake-store.js";
import { errorResponse, jsonResponse, renderApp, testSession } from "../test/render-app.js";

const counts = (available: number, pending: number, sold: number, none: number) => ({ available, pending, sold, none });

const INVENTORY: Inventory = {
  total: 1219,
  byStatus: counts(1204, 7, 5, 3),
  byCategory: [
    { categoryId: 1, name: "Dogs", total: 1210, byStatus: counts(1200, 5, 3, 2) },
    { categoryId: 77, name: null, total: 6, byStatus: counts(3, 1, 2, 0) },
  ],
  other: { total: 3, byStatus: counts(1, 1, 0, 1) },
};

const noPets = () => jsonResponse(200, []);

function cellsOf(row: HTMLElement): string[] {
  return within(row)
    .getAllByRole("cell")
    .map((cell) => cell.textContent ?? "");
}

describe("the Overview", () => {
  it("is the signed-in app's first page, in the navigation, and asks for the inventory", async () => {
    const { requests } = renderApp("/", withCategories(noPets, { inventory: INVENTORY }));
    expect(await screen.findByRole("heading", { name: "Overview", level: 1 })).toBeInTheDocument();
    expect(
      within(screen.getByRole("navigation", { name: "Main" })).getByRole("link", { name: "Overview" }),
    ).toHaveAttribute("aria-current", "page");
    expect(document.title).toBe("Overview · Petstore admin");
    await screen.findByRole("table", { name: "Pets by status" });
    expect(requests.map((request) => new URL(request.url).pathname)).toContain("/v1/store/inventory");
    expect(petListRequests(requests)).toEqual([]);
  });

  it("draws pets by status as bars, each labelled with its number and status", async () => {
    renderApp("/", withCategories(noPets, { inventory: INVENTORY }));
    const region = await screen.findByRole("region", { name: "Pets by status" });
    const chart = region.querySelector("svg")!;
    // A picture of the table beside it: hidden from screen readers, which read the table.
    expect(chart).toHaveAttribute("aria-hidden", "true");
    const bars = [...chart.querySelectorAll("g")].map((bar) =>
      [...bar.querySelectorAll("text")].map((text) => text.textContent),
    );
    expect(bars).toEqual([
      ["1,204", "Available"],
      ["7", "Pending"],
      ["5", "Sold"],
      ["3", "No status"],
    ]);
    const heights = [...chart.querySelectorAll("rect")].map((rect) => Number(rect.getAttribute("height")));
    expect(heights[0]).toBeGreaterThan(heights[1]!);
    expect(Math.min(...heights)).toBeGreaterThan(0);
    // Each in its status's colour (a class of its own).
    const classes = [...chart.querySelectorAll("rect")].map((rect) => rect.getAttribute("class"));
    expect(new Set(classes).size).toBe(4);
    expect(classes.every(Boolean)).toBe(true);
  });

  it("says the same figures in a table, each count a link to the pets it counts", async () => {
    renderApp("/", withCategories(noPets, { inventory: INVENTORY }));
    const table = await screen.findByRole("table", { name: "Pets by status" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => [within(row).getByRole("rowheader").textContent, ...cellsOf(row)])).toEqual([
      ["Available", "1,204"],
      ["Pending", "7"],
      ["Sold", "5"],
      ["No status", "3"],
      ["All", "1,219"],
    ]);
    expect(within(table).getByRole("link", { name: "1,204 available" })).toHaveAttribute(
      "href",
      "/pets?status=available",
    );
    expect(within(table).getByRole("link", { name: "5 sold" })).toHaveAttribute("href", "/pets?status=sold");
    expect(within(table).getByRole("link", { name: "1,219 pets in all" })).toHaveAttribute("href", "/pets");
    // The list has no filter for pets without a status: that count is plain text.
    expect(within(rows[3]!).queryByRole("link")).not.toBeInTheDocument();
  });

  it("lists pets by category: a name, or Category <id>, then Other; each count links to the category's pets", async () => {
    renderApp("/", withCategories(noPets, { inventory: INVENTORY }));
    const table = await screen.findByRole("table", { name: "Pets by category" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((header) => header.textContent),
    ).toEqual(["Category", "Available", "Pending", "Sold", "No status", "Total"]);
    const [dogs, unnamed, other] = within(table).getAllByRole("row").slice(1);
    expect(within(dogs!).getByRole("rowheader")).toHaveTextContent("Dogs");
    expect(cellsOf(dogs!)).toEqual(["1,200", "5", "3", "2", "1,210"]);
    expect(within(dogs!).getByRole("link", { name: "1,200 available in Dogs" })).toHaveAttribute(
      "href",
      "/pets?categoryId=1&status=available",
    );
    expect(within(dogs!).getByRole("link", { name: "1,210 pets in Dogs" })).toHaveAttribute(
      "href",
      "/pets?categoryId=1",
    );
    expect(within(dogs!).getAllByRole("link")).toHaveLength(4);
    expect(within(unnamed!).getByRole("rowheader")).toHaveTextContent("Category 77");
    expect(within(unnamed!).getByRole("link", { name: "2 sold in Category 77" })).toHaveAttribute(
      "href",
      "/pets?categoryId=77&status=sold",
    );
    expect(within(other!).getByRole("rowheader")).toHaveTextContent("Other");
    expect(cellsOf(other!)).toEqual(["1", "1", "0", "1", "3"]);
    expect(within(other!).queryByRole("link")).not.toBeInTheDocument();
  });

  it("a count opens the pets list filtered by it", async () => {
    const { user, location } = renderApp("/", withCategories(noPets, { inventory: INVENTORY }));
    await user.click(await screen.findByRole("link", { name: "1 pending in Category 77" }));
    expect(await screen.findByRole("heading", { name: "Pets", level: 1 })).toBeInTheDocument();
    expect(location.current).toBe("/pets?categoryId=77&status=pending");
    expect(screen.getByLabelText("Status")).toHaveValue("pending");
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Category" })).toHaveValue("77"));
  });

  it("shows a failure with Retry, and the figures once they come", async () => {
    let answers = 0;
    const { user } = renderApp(
      "/",
      withCategories(noPets, {
        inventory: () =>
          answers++ === 0 ? errorResponse(403, "FORBIDDEN", "Not for this key.") : jsonResponse(200, INVENTORY),
      }),
    );
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("The store's figures could not be loaded. Not for this key.");
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("table", { name: "Pets by category" })).toBeInTheDocument();
  });

  it("says so when no pet is in any category yet", async () => {
    const empty: Inventory = {
      total: 0,
      byStatus: counts(0, 0, 0, 0),
      byCategory: [],
      other: { total: 0, byStatus: counts(0, 0, 0, 0) },
    };
    renderApp("/", withCategories(noPets, { inventory: empty }), { session: testSession("read") });
    expect(await screen.findByText("No pets in any category yet.")).toBeInTheDocument();
    expect(
      within(screen.getByRole("table", { name: "Pets by status" })).getByRole("link", { name: "0 pets in all" }),
    ).toBeInTheDocument();
  });

  it("/overview is the Overview too", async () => {
    const { location } = renderApp("/overview", withCategories(noPets, { inventory: INVENTORY }));
    expect(await screen.findByRole("heading", { name: "Overview", level: 1 })).toBeInTheDocument();
    expect(location.current).toBe("/");
  });
});
