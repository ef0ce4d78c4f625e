import type { Category, Pet } from "@petstore/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DEMO_CATEGORIES, withCategories } from "../test/fake-store.js";
import { deferred, errorResponse, jsonResponse, renderApp } from "../test/render-app.js";

const REX: Pet = { id: 37, name: "Rex", categoryId: 4, status: "pending" };

/**
 * Answers listPets with `listed`, and createPet with whatever `create` returns. The store names no
 * category unless told (`categories`): the form then asks for the `Category ID` alone.
 */
function petstore(
  create: (request: Request) => Response | Promise<Response>,
  listed: Pet[] = [REX],
  categories: Category[] = [],
) {
  return withCategories(
    (request: Request) => (request.method === "POST" ? create(request) : jsonResponse(200, listed)),
    { categories },
  );
}

describe("the add-pet form", () => {
  it("checks the input with the contract, shows each problem beside its field and sends nothing", async () => {
    const { user, requests } = renderApp(
      "/pets/new",
      petstore(() => jsonResponse(201, REX)),
    );
    await screen.findByLabelText("Name"); // the page's code arrives first
    await user.type(screen.getByLabelText("Name"), "   ");
    await user.type(screen.getByLabelText("Category ID"), "0");
    await user.click(screen.getByRole("button", { name: "Add pet" }));

    expect(screen.getByLabelText("Name")).toHaveAccessibleDescription("Name must not be empty");
    expect(screen.getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Name")).toHaveFocus();
    expect(screen.getByLabelText("Category ID")).toHaveAccessibleDescription(
      expect.stringContaining("Category ID must be at least 1"),
    );
    expect(screen.getByLabelText("Status")).not.toHaveAttribute("aria-invalid");
    expect(requests.filter((request) => request.method === "POST")).toEqual([]);
  });

  it("clears an error once the field is fixed and the form is sent again", async () => {
    const { user } = renderApp(
      "/pets/new",
      petstore(() => deferred<Response>().promise),
    );
    await screen.findByLabelText("Name"); // the page's code arrives first
    await user.click(screen.getByRole("button", { name: "Add pet" }));
    expect(screen.getByLabelText("Name")).toHaveAccessibleDescription("Name must not be empty");
    expect(screen.getByLabelText("Category ID")).toHaveAccessibleDescription(
      expect.stringContaining("Category ID is required"),
    );
    await user.type(screen.getByLabelText("Name"), "Rex");
    await user.type(screen.getByLabelText("Category ID"), "4");
    await user.click(screen.getByRole("button", { name: "Add pet" }));
    expect(screen.getByLabelText("Name")).not.toHaveAccessibleDescription();
    expect(screen.getByLabelText("Name")).not.toHaveAttribute("aria-invalid");
  });

  it("disables Add pet while sending, then announces the pet and shows it in the list", async () => {
    const created = deferred<Response>();
    const { user, requests, location } = renderApp(
      "/pets/new",
      petstore(() => created.promise),
    );
    await screen.findByLabelText("Name"); // the page's code arrives first
    await user.type(screen.getByLabelText("Name"), "  Rex ");
    await user.type(screen.getByLabelText("Category ID"), "4");
    await user.selectOptions(screen.getByLabelText("Status"), "pending");
    await user.click(screen.getByRole("button", { name: "Add pet" }));

    expect(screen.getByRole("button", { name: "Add pet" })).toBeDisabled();
    const post = requests.find((request) => request.method === "POST");
    expect(await post?.json()).toEqual({ name: "Rex", categoryId: 4, status: "pending" });

    created.resolve(jsonResponse(201, REX));
    expect(await screen.findByRole("heading", { name: "Pets" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Added Rex (id 37).");
    // The list's last page: the page just below the next id, which ends with the new pet.
    expect(location.current).toBe("/pets?limit=20&before=38");
    const table = await screen.findByRole("table", { name: "Pets" });
    // Its row says it is new.
    const row = within(table).getByRole("rowheader", { name: "Rex New" }).closest("tr")!;
    expect(within(row).getByText("New")).toBeVisible();
  });

  it("shows the API's 400 beside the field it names", async () => {
    const { user } = renderApp(
      "/pets/new",
      petstore(() =>
        errorResponse(
          400,
          "VALIDATION_ERROR",
          "Invalid request: body.categoryId: categoryId must be at most 9007199254740991.",
          [{ field: "body.categoryId", message: "categoryId must be at most 9007199254740991" }],
        ),
      ),
    );
    await screen.findByLabelText("Name"); // the page's code arrives first
    await user.type(screen.getByLabelText("Name"), "Rex");
    await user.type(screen.getByLabelText("Category ID"), "4");
    await user.click(screen.getByRole("button", { name: "Add pet" }));

    await waitFor(() =>
      expect(screen.getByLabelText("Category ID")).toHaveAccessibleDescription(
        expect.stringContaining("Category ID must be at most 9007199254740991"),
      ),
    );
    expect(screen.getByRole("button", { name: "Add pet" })).toBeEnabled();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("says when to try again after a 429", async () => {
    const { user } = renderApp(
      "/pets/new",
      petstore(() =>
        errorResponse(429, "RATE_LIMITED", "Too many requests for this API key; retry after 1 seconds.", undefined, {
          "Retry-After": "1",
        }),
      ),
    );
    await screen.findByLabelText("Name"); // the page's code arrives first
    await user.type(screen.getByLabelText("Name"), "Rex");
    await user.type(screen.getByLabelText("Category ID"), "4");
    await user.click(screen.getByRole("button", { name: "Add pet" }));

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The pet was not added. Too many requests. Try again in 1 second.",
    );
  });

  it("reports any other failure for the whole form, keeping what was typed", async () => {
    const { user } = renderApp(
      "/pets/new",
      petstore(() => errorResponse(500, "INTERNAL", "Something went wrong on our side.")),
    );
    await screen.findByLabelText("Name"); // the page's code arrives first
    await user.type(screen.getByLabelText("Name"), "Rex");
    await user.type(screen.getByLabelText("Category ID"), "4");
    await user.click(screen.getByRole("button", { name: "Add pet" }));

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The pet was not added. Something went wrong on our side.",
    );
    expect(screen.getByLabelText("Name")).toHaveValue("Rex");
  });

  it("resends a create whose answer was lost with the same Idempotency-Key, so the pet is added once", async () => {
    let attempts = 0;
    const { user, requests, sleeps } = renderApp(
      "/pets/new",
      petstore(() => {
        attempts += 1;
        // The first attempt reached the API, but its answer never came back.
        if (attempts === 1) throw new TypeError("Failed to fetch");
        return jsonResponse(201, REX, { "Idempotent-Replayed": "true" });
      }),
    );
    await screen.findByLabelText("Name"); // the page's code arrives first
    await user.type(screen.getByLabelText("Name"), "Rex");
    await user.type(screen.getByLabelText("Category ID"), "4");
    await user.click(screen.getByRole("button", { name: "Add pet" }));

    expect(await screen.findByRole("heading", { name: "Pets" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Added Rex (id 37).");
    const keys = requests
      .filter((request) => request.method === "POST")
      .map((request) => request.headers.get("idempotency-key"));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(sleeps).toHaveLength(1);
  });

  it("waits out a 429's Retry-After before sending again", async () => {
    let attempts = 0;
    const { user, sleeps } = renderApp(
      "/pets/new",
      petstore(() => {
        attempts += 1;
        return attempts === 1
          ? errorResponse(429, "RATE_LIMITED", "Too many requests.", undefined, { "Retry-After": "2" })
          : jsonResponse(201, REX);
      }),
    );
    await screen.findByLabelText("Name"); // the page's code arrives first
    await user.type(screen.getByLabelText("Name"), "Rex");
    await user.type(screen.getByLabelText("Category ID"), "4");
    await user.click(screen.getByRole("button", { name: "Add pet" }));

    expect(await screen.findByRole("heading", { name: "Pets" })).toBeInTheDocument();
    expect(sleeps).toEqual([2000]);
  });

  it("gives up after a bounded number of attempts, then reuses the key if the same pet is sent again", async () => {
    const { user, requests } = renderApp(
      "/pets/new",
      petstore(() => {
        throw new TypeError("Failed to fetch");
      }),
    );
    await screen.findByLabelText("Name"); // the page's code arrives first
    const postedKeys = () =>
      requests.filter((request) => request.method === "POST").map((request) => request.headers.get("idempotency-key"));
    await user.type(screen.getByLabelText("Name"), "Rex");
    await user.type(screen.getByLabelText("Category ID"), "4");
    await user.click(screen.getByRole("button", { name: "Add pet" }));

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The pet was not added. The API could not be reached. Check your connection and try again.",
    );
    expect(postedKeys()).toHaveLength(4);
    expect(new Set(postedKeys()).size).toBe(1);

    // Any of those attempts may have been saved: the same pet again keeps its key…
    await user.click(screen.getByRole("button", { name: "Add pet" }));
    await waitFor(() => expect(postedKeys()).toHaveLength(8));
    expect(new Set(postedKeys()).size).toBe(1);

    // …another pet is another create, with a new key.
    await user.type(screen.getByLabelText("Name"), "y");
    await user.click(screen.getByRole("button", { name: "Add pet" }));
    await waitFor(() => expect(postedKeys()).toHaveLength(12));
    expect(new Set(postedKeys()).size).toBe(2);
  });

  it("does not resend after a 4xx that asking again would not change", async () => {
    const { user, requests } = renderApp(
      "/pets/new",
      petstore(() => errorResponse(422, "IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with another body.")),
    );
    await screen.findByLabelText("Name"); // the page's code arrives first
    await user.type(screen.getByLabelText("Name"), "Rex");
    await user.type(screen.getByLabelText("Category ID"), "4");
    await user.click(screen.getByRole("button", { name: "Add pet" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("This Idempotency-Key was used with another body.");
    expect(requests.filter((request) => request.method === "POST")).toHaveLength(1);
  });

  describe("with named categories", () => {
    it("offers them in Category, and sends the one chosen", async () => {
      const { user, requests } = renderApp(
        "/pets/new",
        petstore(() => jsonResponse(201, REX), [REX], DEMO_CATEGORIES),
      );
      await screen.findByLabelText("Name"); // the page's code arrives first
      const category = await screen.findByRole("combobox", { name: "Category" });
      expect(
        within(category)
          .getAllByRole("option")
          .map((option) => option.textContent),
      ).toEqual(["Choose a category", "Birds", "Cats", "Dogs", "Fish", "Rabbits", "Other id…"]);
      expect(screen.queryByLabelText("Category ID")).not.toBeInTheDocument();

      await user.type(screen.getByLabelText("Name"), "Rex");
      await user.selectOptions(category, "Rabbits");
      await user.click(screen.getByRole("button", { name: "Add pet" }));
      await screen.findByRole("heading", { name: "Pets" });
      const post = requests.find((request) => request.method === "POST");
      expect(await post?.json()).toEqual({ name: "Rex", categoryId: 4 });
    });

    it("asks for a category when none is chosen, beside Category", async () => {
      const { user, requests } = renderApp(
        "/pets/new",
        petstore(() => jsonResponse(201, REX), [REX], DEMO_CATEGORIES),
      );
      await screen.findByLabelText("Name"); // the page's code arrives first
      await screen.findByRole("combobox", { name: "Category" });
      await user.type(screen.getByLabelText("Name"), "Rex");
      await user.click(screen.getByRole("button", { name: "Add pet" }));
      const category = screen.getByRole("combobox", { name: "Category" });
      expect(category).toHaveAccessibleDescription("Choose a category.");
      expect(category).toHaveFocus();
      expect(requests.filter((request) => request.method === "POST")).toEqual([]);
    });

    it("shows Category ID for Other id…, and sends the id typed there", async () => {
      const { user, requests } = renderApp(
        "/pets/new",
        petstore(() => jsonResponse(201, { ...REX, categoryId: 77 }), [REX], DEMO_CATEGORIES),
      );
      await screen.findByLabelText("Name"); // the page's code arrives first
      const category = await screen.findByRole("combobox", { name: "Category" });
      await user.type(screen.getByLabelText("Name"), "Rex");
      await user.selectOptions(category, "Other id…");
      const id = screen.getByRole("textbox", { name: "Category ID" });
      await user.type(id, "0");
      await user.click(screen.getByRole("button", { name: "Add pet" }));
      expect(id).toHaveAccessibleDescription(expect.stringContaining("Category ID must be at least 1"));
      expect(id).toHaveFocus();

      await user.clear(id);
      await user.type(id, "77");
      await user.click(screen.getByRole("button", { name: "Add pet" }));
      await screen.findByRole("heading", { name: "Pets" });
      const post = requests.find((request) => request.method === "POST");
      expect(await post?.json()).toEqual({ name: "Rex", categoryId: 77 });
    });
  });
});
