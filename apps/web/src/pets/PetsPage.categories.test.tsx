import type { Pet } from "@petstore/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakePetChanges } from "../test/fake-pet-changes.js";
import { DEMO_CATEGORIES, petListRequests, withCategories } from "../test/fake-store.js";
import { errorResponse, jsonResponse, renderApp } from "../test/render-app.js";

const PETS: Pet[] = [
  { id: 1, name: "Rex", categoryId: 1, status: "available" },
  { id: 2, name: "Bella", categoryId: 2, status: "pending" },
  { id: 3, name: "Milo", categoryId: 42 },
];

function petRows() {
  return within(screen.getByRole("table", { name: "Pets" }))
    .getAllByRole("row")
    .filter((row) => within(row).queryByRole("rowheader") !== null);
}

const categoryColumn = () => petRows().map((row) => within(row).getAllByRole("cell")[2]?.textContent);

/** `count` pets, ids 1..count, spread over categories 1 and 2. */
const manyPets = (count: number): Pet[] =>
  Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    name: `Pet ${index + 1}`,
    categoryId: (index % 2) + 1,
  }));

describe("categories on the pets list", () => {
  it("shows each pet's category by name, and Category <id> for an id no category names", async () => {
    renderApp(
      "/pets",
      withCategories(() => jsonResponse(200, PETS)),
    );
    await waitFor(() => expect(categoryColumn()).toEqual(["Dogs", "Cats", "Category 42"]));
    expect(
      within(screen.getByRole("table", { name: "Pets" })).getByRole("columnheader", { name: "Category" }),
    ).toBeInTheDocument();
  });

  it("shows ids as Category <id> when the names cannot be read, and the list all the same", async () => {
    renderApp(
      "/pets",
      withCategories(() => jsonResponse(200, PETS), { categories: () => errorResponse(403, "FORBIDDEN", "No.") }),
    );
    await waitFor(() => expect(categoryColumn()).toEqual(["Category 1", "Category 2", "Category 42"]));
  });

  it("filters by Category, kept in the URL as categoryId, from the first pet", async () => {
    const { user, location, requests } = renderApp(
      "/pets?status=available&after=20",
      withCategories(() => jsonResponse(200, PETS)),
    );
    const select = await screen.findByRole("combobox", { name: "Category" });
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole("option")
          .map((option) => option.textContent),
      ).toEqual(["All", "Birds", "Cats", "Dogs", "Fish", "Rabbits"]),
    );
    await user.selectOptions(select, "Cats");
    expect(location.current).toBe("/pets?status=available&categoryId=2&limit=20");
    await waitFor(() =>
      expect(Object.fromEntries(new URL(petListRequests(requests).at(-1)!.url).searchParams)).toEqual({
        limit: "20",
        status: "available",
        categoryId: "2",
        count: "true",
      }),
    );
    expect(document.title).toBe("Pets: Cats, available · Petstore admin");
    await user.selectOptions(select, "All");
    expect(location.current).toBe("/pets?status=available&limit=20");
  });

  it("keeps a filter by an id no category names as an option of its own", async () => {
    renderApp(
      "/pets?categoryId=42",
      withCategories(() => jsonResponse(200, [PETS[2]])),
    );
    const select = await screen.findByRole("combobox", { name: "Category" });
    await waitFor(() => expect(within(select).getAllByRole("option").at(-1)).toHaveTextContent("Category 42"));
    expect(select).toHaveValue("42");
  });

  it("says when no pet is in the category, with a way back to all", async () => {
    renderApp(
      "/pets?categoryId=5&status=sold",
      withCategories(() => jsonResponse(200, [])),
    );
    expect(await screen.findByText("No pets in Fish are sold.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Show all pets" })).toHaveAttribute("href", "/pets?limit=20");
  });
});

describe("the total and the pages of the pets list", () => {
  it("says how many pets the filters match, from X-Total-Count", async () => {
    renderApp(
      "/pets",
      withCategories(() => jsonResponse(200, PETS, { "X-Total-Count": "1204" })),
    );
    expect(await screen.findByText("1,204 pets")).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Pets" })).toHaveAccessibleDescription("1,204 pets");
  });

  it("says 10,000+ pets for a name search the API stopped counting", async () => {
    renderApp(
      "/pets?name=pet",
      withCategories(() => jsonResponse(200, PETS, { "X-Total-Count": "10000+" })),
    );
    expect(await screen.findByText("10,000+ pets")).toBeInTheDocument();
  });

  it("offers no Previous page on the first page, and Next page after it", async () => {
    renderApp("/pets", fakePetChanges(manyPets(45), { categories: DEMO_CATEGORIES }).handler);
    expect(await screen.findByText("45 pets")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Previous page" })).not.toBeInTheDocument();
  });

  it("pages forward with Next page and back with Previous page, both in the URL", async () => {
    const store = fakePetChanges(manyPets(45));
    const { user, location } = renderApp("/pets", (request) => {
      const response = store.handler(request);
      const url = new URL(request.url);
      // The fake answers pages; the API's Link header is this test's: next past the last, prev below the first.
      if (url.pathname !== "/v1/pets") return response;
      return response.then(async (answer) => {
        const pets = (await answer.json()) as Pet[];
        const links: string[] = [];
        const last = pets.at(-1)?.id ?? 0;
        const first = pets[0]?.id ?? 0;
        if (last < 45) links.push(`</v1/pets?limit=20&after=${last}>; rel="next"`);
        if (url.searchParams.has("before") && first > 1) links.push(`</v1/pets?limit=20&before=${first}>; rel="prev"`);
        return jsonResponse(200, pets, { Link: links.join(", "), "X-Total-Count": "45" });
      });
    });
    expect(await screen.findByText("45 pets")).toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Next page" }));
    await waitFor(() => expect(location.current).toBe("/pets?limit=20&after=20"));
    await waitFor(() => expect(petRows()[0]).toHaveTextContent("Pet 21"));
    expect(screen.getByText("45 pets")).toBeInTheDocument();

    // Back: the page just below this one's first pet.
    await user.click(screen.getByRole("link", { name: "Previous page" }));
    await waitFor(() => expect(location.current).toBe("/pets?limit=20&before=21"));
    await waitFor(() => expect(petRows()[0]).toHaveTextContent("Pet 1"));
    expect(petRows()).toHaveLength(20);
    // The first page again: nothing below it, so no Previous page.
    expect(screen.queryByRole("link", { name: "Previous page" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Next page" })).toHaveAttribute("href", "/pets?limit=20&after=20");

    // From the last page (as after adding a pet) back down, following the API's prev link.
    await user.click(screen.getByRole("link", { name: "Next page" }));
    await user.click(await screen.findByRole("link", { name: "Next page" }));
    await waitFor(() => expect(location.current).toBe("/pets?limit=20&after=40"));
    expect(await screen.findByRole("rowheader", { name: "Pet 45" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Next page" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Previous page" }));
    await waitFor(() => expect(location.current).toBe("/pets?limit=20&before=41"));
    await waitFor(() => expect(petRows()[0]).toHaveTextContent("Pet 21"));
    expect(screen.getByRole("link", { name: "Previous page" })).toHaveAttribute("href", "/pets?limit=20&before=21");
  });
});
