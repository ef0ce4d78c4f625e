import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { Toolbar } from "./Toolbar.js";

function renderToolbar() {
  render(
    <>
      <button type="button">Before</button>
      <Toolbar label="Selected pets">
        <span>2 pets selected</span>
        <button type="button">Reserve</button>
        <button type="button">Mark sold</button>
        <button type="button">Delete</button>
      </Toolbar>
      <button type="button">After</button>
    </>,
  );
}

describe("Toolbar", () => {
  it("is one Tab stop, named, whose buttons the arrow keys, Home and End move between", async () => {
    renderToolbar();
    const user = userEvent.setup();
    expect(screen.getByRole("toolbar", { name: "Selected pets" })).toBeInTheDocument();
    await user.tab();
    await user.tab();
    expect(screen.getByRole("button", { name: "Reserve" })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole("button", { name: "After" })).toHaveFocus();

    await user.tab({ shift: true });
    expect(screen.getByRole("button", { name: "Reserve" })).toHaveFocus();
    await user.keyboard("{ArrowRight}");
    expect(screen.getByRole("button", { name: "Mark sold" })).toHaveFocus();
    await user.keyboard("{End}");
    expect(screen.getByRole("button", { name: "Delete" })).toHaveFocus();
    await user.keyboard("{ArrowRight}");
    expect(screen.getByRole("button", { name: "Reserve" })).toHaveFocus();
    await user.keyboard("{ArrowLeft}");
    expect(screen.getByRole("button", { name: "Delete" })).toHaveFocus();
    await user.keyboard("{Home}");
    expect(screen.getByRole("button", { name: "Reserve" })).toHaveFocus();
    await user.keyboard("{ArrowRight}");

    // Tab leaves, and comes back to the button last used.
    await user.tab();
    expect(screen.getByRole("button", { name: "After" })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole("button", { name: "Mark sold" })).toHaveFocus();
  });
});
