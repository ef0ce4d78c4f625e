import type { Pet } from "@petstore/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { petListRequests, withCategories } from "../test/fake-store.js";
import { deferred, errorResponse, jsonResponse, renderApp } from "../test/render-app.js";

const PETS: Pet[] = [
  { id: 1, name: "Rex", categoryId: 1, status: "available" },
  { id: 2, name: "Bella", categoryId: 2, status: "pending" },
  { id: 3, name: "Milo", categoryId: 3 },
];

function petRows() {
  return within(screen.getByRole("table", { name: "Pets" }))
    .getAllByRole("row")
    .filter((row) => within(row).queryByRole("rowheader") !== null);
}

describe("the pets list", () => {
  it("shows a loading state, then one row per pet with its status badge", async () => {
    const response = deferred<Response>();
    renderApp(
      "/pets",
      withCategories(() => response.promise),
    );
    const loading = await screen.findByText("Loading pets…");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    // The placeholder is as tall as the page it stands for: the header and the page size's 20 rows.
    expect(loading.parentElement!.querySelectorAll(':scope > [aria-hidden="true"]')).toHaveLength(21);

    response.resolve(jsonResponse(200, PETS));
    await waitFor(() => expect(petRows()).toHaveLength(3));
    const [rex, , milo] = petRows();
    expect(within(rex!).getByRole("rowheader")).toHaveTextContent("Rex");
    // A write session's rows start with the selection checkbox's cell; the category shows by name.
    expect(
      within(rex!)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["", "1", "Dogs", "available"]);
    expect(within(rex!).getByRole("checkbox", { name: "Select Rex" })).not.toBeChecked();
    expect(within(milo!).getAllByRole("cell")[3]).toHaveTextContent("no status");
    expect(within(rex!).getByRole("link", { name: "Rex" })).toHaveAttribute("href", "/pets/1");
    expect(screen.queryByText("Loading pets…")).not.toBeInTheDocument();
  });

  it("asks the API for the status and page size in the URL", async () => {
    const { requests } = renderApp(
      "/pets?status=pending&limit=50&after=10",
      withCategories(() => jsonResponse(200, [PETS[1]])),
    );
    await waitFor(() => expect(petRows()).toHaveLength(1));
    const [list] = petListRequests(requests);
    const url = new URL(list!.url);
    expect(url.pathname).toBe("/v1/pets");
    // With the total of the pets the filters match (`X-Total-Count`).
    expect(Object.fromEntries(url.searchParams)).toEqual({
      status: "pending",
      limit: "50",
      after: "10",
      count: "true",
    });
    expect(list!.headers.get("authorization")).toMatch(/^Bearer pst_[A-Za-z0-9_-]{43}$/);
    expect(screen.getByLabelText("Status")).toHaveValue("pending");
    expect(screen.getByLabelText("Page size")).toHaveValue("50");
  });

  it("changing a filter updates the URL and starts from the first pet", async () => {
    const { location, user, requests } = renderApp(
      "/pets?limit=20&before=20",
      withCategories(() => jsonResponse(200, PETS)),
    );
    await waitFor(() => expect(petRows()).toHaveLength(3));
    await user.selectOptions(screen.getByLabelText("Status"), "sold");
    expect(location.current).toBe("/pets?status=sold&limit=20");
    await user.selectOptions(screen.getByLabelText("Page size"), "100");
    expect(location.current).toBe("/pets?status=sold&limit=100");
    await waitFor(() =>
      expect(new URL(petListRequests(requests).at(-1)!.url).search).toBe("?limit=100&status=sold&count=true"),
    );
  });

  it("links Next page to the API's next cursor, keeping the filter", async () => {
    renderApp(
      "/pets?status=sold",
      withCategories(() => jsonResponse(200, PETS, { Link: '</v1/pets?limit=20&status=sold&after=3>; rel="next"' })),
    );
    const next = await screen.findByRole("link", { name: "Next page" });
    expect(next).toHaveAttribute("href", "/pets?status=sold&limit=20&after=3");
    expect(screen.queryByRole("link", { name: "First page" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Previous page" })).not.toBeInTheDocument();
  });

  it("offers no Next page on the last page", async () => {
    renderApp(
      "/pets?after=3",
      withCategories(() => jsonResponse(200, [{ ...PETS[0]!, id: 4 }])),
    );
    await waitFor(() => expect(petRows()).toHaveLength(1));
    expect(screen.queryByRole("link", { name: "Next page" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "First page" })).toHaveAttribute("href", "/pets?limit=20");
    // The pets skipped lie below this page's first.
    expect(screen.getByRole("link", { name: "Previous page" })).toHaveAttribute("href", "/pets?limit=20&before=4");
  });

  it("says so when the store is empty", async () => {
    renderApp(
      "/pets",
      withCategories(() => jsonResponse(200, [])),
    );
    expect(await screen.findByText("There are no pets in the store yet.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Add the first pet" })).toHaveAttribute("href", "/pets/new");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("says so when no pet has the chosen status, with a way back to all", async () => {
    renderApp(
      "/pets?status=sold",
      withCategories(() => jsonResponse(200, [])),
    );
    expect(await screen.findByText("No pets are sold.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Show all pets" })).toHaveAttribute("href", "/pets?limit=20");
  });

  it("shows an error with Retry when the API cannot be reached, and recovers", async () => {
    let reachable = false;
    const { user, requests } = renderApp(
      "/pets",
      withCategories(() => (reachable ? jsonResponse(200, PETS) : Promise.reject(new TypeError("Failed to fetch")))),
    );
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("The pets could not be loaded.");
    expect(alert).toHaveTextContent("could not be reached");
    // A network failure was retried before giving up.
    expect(petListRequests(requests)).toHaveLength(3);

    reachable = true;
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(petRows()).toHaveLength(3));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("shows the API's own message for an error it explains, without retrying a 4xx", async () => {
    const { requests } = renderApp(
      "/pets",
      withCategories(() =>
        errorResponse(400, "VALIDATION_ERROR", "Invalid request: query.limit: limit must be at most 100."),
      ),
    );
    expect(await screen.findByRole("alert")).toHaveTextContent("limit must be at most 100");
    expect(petListRequests(requests)).toHaveLength(1);
  });

  it("says when to try again after a 429, without asking again on its own", async () => {
    const { requests } = renderApp(
      "/pets",
      withCategories(() =>
        errorResponse(429, "RATE_LIMITED", "Too many requests for this API key; retry after 30 seconds.", undefined, {
          "Retry-After": "30",
        }),
      ),
    );
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("The pets could not be loaded. Too many requests. Try again in 30 seconds.");
    expect(within(alert).getByRole("button", { name: "Retry" })).toBeEnabled();
    expect(petListRequests(requests)).toHaveLength(1);
  });

  it("says the database is unavailable while it retries on its own, then shows the pets when it is back", async () => {
    let answers = 0;
    const { requests } = renderApp(
      "/pets",
      withCategories(() =>
        answers++ === 0
          ? errorResponse(503, "UNAVAILABLE", "The database is not reachable.", undefined, { "Retry-After": "1" })
          : jsonResponse(200, PETS),
      ),
    );
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("The pets could not be loaded. The store's database is unavailable. Retrying…");
    expect(petListRequests(requests)).toHaveLength(1);

    // Retry-After: 1 — the second request goes a second later, without anyone pressing Retry.
    await waitFor(() => expect(petRows()).toHaveLength(3), { timeout: 3000 });
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(petListRequests(requests)).toHaveLength(2);
  });

  it("returns to sign-in with a message when the API refuses the session, even with a renewed token", async () => {
    const { location, requests } = renderApp(
      "/pets?status=sold",
      withCategories(() => errorResponse(401, "UNAUTHORIZED", "The session token is not valid.")),
    );
    expect(await screen.findByRole("heading", { name: "Sign in", level: 1 })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("Your session has ended. Sign in again.");
    // Once with the first token, once with a renewed one; then no more.
    const lists = petListRequests(requests);
    expect(lists).toHaveLength(2);
    expect(lists[0]!.headers.get("authorization")).not.toBe(lists[1]!.headers.get("authorization"));
    expect(location.current).toBe("/sign-in");
    expect(sessionStorage.length).toBe(0);
  });
});
