import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { withCategories } from "../test/fake-store.js";
import { jsonResponse, renderApp } from "../test/render-app.js";
import { applyTheme, storedTheme } from "./theme.js";

afterEach(() => applyTheme(null));

describe("the header's Dark mode switch", () => {
  it("follows the system until pressed, then shows and remembers the theme chosen", async () => {
    const { user } = renderApp(
      "/pets",
      withCategories(() => jsonResponse(200, [])),
    );
    const toggle = await screen.findByRole("button", { name: "Dark mode" });
    // jsdom's system is light.
    expect(toggle).toHaveAttribute("aria-pressed", "false");
    expect(document.documentElement.dataset["theme"]).toBeUndefined();
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-pressed", "true");
    expect(document.documentElement.dataset["theme"]).toBe("dark");
    expect(storedTheme()).toBe("dark");
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-pressed", "false");
    expect(document.documentElement.dataset["theme"]).toBe("light");
    expect(storedTheme()).toBe("light");
  });
});
