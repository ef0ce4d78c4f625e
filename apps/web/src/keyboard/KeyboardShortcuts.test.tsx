import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { withCategories } from "../test/fake-store.js";
import { jsonResponse, renderApp } from "../test/render-app.js";
import { shortcutsOn } from "./shortcut-settings.js";

const listOfNone = withCategories(() => jsonResponse(200, []));

describe("keyboard shortcuts", () => {
  it("/ focuses the pets search, n opens New pet, and neither fires while typing", async () => {
    const { user, location } = renderApp("/pets", listOfNone);
    const search = await screen.findByLabelText("Search by name");
    await user.keyboard("/");
    expect(search).toHaveFocus();
    // Typed into the field: an "n" is the search's, not a shortcut.
    await user.keyboard("n");
    expect(search).toHaveValue("n");
    expect(location.current).toMatch(/^\/pets/);
    expect(location.current).not.toBe("/pets/new");
    search.blur();
    await user.keyboard("n");
    await waitFor(() => expect(location.current).toBe("/pets/new"));
  });

  it("/ from another page opens the list with the search focused", async () => {
    const { user, location } = renderApp("/pets/new", listOfNone);
    await screen.findByRole("heading", { name: "New pet", level: 1 });
    await user.keyboard("/");
    await waitFor(() => expect(location.current).toBe("/pets"));
    await waitFor(() => expect(screen.getByLabelText("Search by name")).toHaveFocus());
  });

  it("? lists them in a dialog where they can be turned off, remembered; the header's button opens it again", async () => {
    const { user, location } = renderApp("/pets", listOfNone);
    await screen.findByLabelText("Search by name");
    await user.keyboard("?");
    const dialog = await screen.findByRole("dialog", { name: "Keyboard shortcuts" });
    expect(within(dialog).getByRole("button", { name: "Close" })).toHaveFocus();
    expect(
      within(dialog)
        .getAllByRole("term")
        .map((term) => term.textContent),
    ).toEqual(["/", "n", "?"]);
    await user.click(within(dialog).getByRole("checkbox", { name: "Use single-key shortcuts" }));
    expect(shortcutsOn()).toBe(false);
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await user.keyboard("n");
    expect(location.current).toBe("/pets");

    await user.click(screen.getByRole("button", { name: "Keyboard shortcuts" }));
    await user.click(
      within(screen.getByRole("dialog", { name: "Keyboard shortcuts" })).getByRole("checkbox", {
        name: "Use single-key shortcuts",
      }),
    );
    expect(shortcutsOn()).toBe(true);
  });
});
