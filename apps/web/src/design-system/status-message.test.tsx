import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, useNavigate } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import { ROUTER_FUTURE } from "../App.js";
import { StatusMessageRegion, useShowStatusMessage } from "./status-message.js";

type Controls = { show: ReturnType<typeof useShowStatusMessage>; navigate: ReturnType<typeof useNavigate> };

function Probe({ controls }: { controls: Partial<Controls> }) {
  controls.show = useShowStatusMessage();
  controls.navigate = useNavigate();
  return null;
}

function renderRegion(at: string) {
  const controls: Partial<Controls> = {};
  render(
    <MemoryRouter initialEntries={[at]} future={ROUTER_FUTURE}>
      <StatusMessageRegion>
        <Probe controls={controls} />
      </StatusMessageRegion>
    </MemoryRouter>,
  );
  return controls as Controls;
}

describe("useShowStatusMessage", () => {
  it("shows the message in the polite status region while its page is shown", () => {
    const { show } = renderRegion("/pets/import");
    act(() => show("Imported 2 pets.", "/pets/import"));
    expect(screen.getByRole("status")).toHaveAttribute("aria-live", "polite");
    expect(screen.getByRole("status")).toHaveTextContent("Imported 2 pets.");
  });

  it("keeps a message set just before navigating to its page, and clears it on leaving that page", () => {
    const { show, navigate } = renderRegion("/pets/new");
    act(() => {
      show("Added Rex (id 37).", "/pets");
      navigate("/pets");
    });
    expect(screen.getByRole("status")).toHaveTextContent("Added Rex (id 37).");

    act(() => navigate("/pets/37"));
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
    act(() => navigate("/pets"));
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
  });

  it("shows details under the message, and can take the focus", () => {
    const { show } = renderRegion("/pets");
    act(() =>
      show("Reserved 1 of 2 pets.", "/pets", {
        tone: "info",
        details: ["Milo was not changed: status is sold, not none."],
        focus: true,
      }),
    );
    const status = screen.getByRole("status");
    expect(status).toHaveTextContent("Reserved 1 of 2 pets.");
    expect(within(status).getByRole("listitem")).toHaveTextContent("Milo was not changed: status is sold, not none.");
    expect(status.contains(document.activeElement)).toBe(true);
  });

  it("runs its action once, and shows what it led to in its place, with the focus", async () => {
    const { show } = renderRegion("/pets");
    let runs = 0;
    let finish: () => void = () => {};
    act(() =>
      show("Deleted Rex.", "/pets", {
        action: {
          label: "Undo",
          run: () => {
            runs++;
            return new Promise((resolve) => (finish = () => resolve({ message: "Restored Rex." })));
          },
        },
      }),
    );
    const user = userEvent.setup();
    const undo = within(screen.getByRole("status")).getByRole("button", { name: "Undo" });
    await user.click(undo);
    expect(undo).toHaveAttribute("aria-busy", "true");
    await user.click(undo);
    expect(runs).toBe(1);
    act(() => finish());
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Restored Rex."));
    expect(within(screen.getByRole("status")).queryByRole("button")).not.toBeInTheDocument();
    expect(screen.getByRole("status").contains(document.activeElement)).toBe(true);
  });

  it("says so when its action fails", async () => {
    const { show } = renderRegion("/pets");
    act(() =>
      show("Deleted Rex.", "/pets", {
        action: { label: "Undo", run: () => Promise.reject(new TypeError("Failed to fetch")) },
      }),
    );
    await userEvent.setup().click(screen.getByRole("button", { name: "Undo" }));
    await waitFor(() =>
      expect(screen.getByRole("status")).toHaveTextContent(
        "Undo did not work. The API could not be reached. Check your connection and try again.",
      ),
    );
  });

  it("needs the region around it", () => {
    // React reports the render error to the console and to window's error event (jsdom prints both).
    vi.spyOn(console, "error").mockImplementation(() => {});
    const quiet = (event: ErrorEvent) => event.preventDefault();
    window.addEventListener("error", quiet);
    function Orphan() {
      useShowStatusMessage();
      return null;
    }
    try {
      expect(() => render(<Orphan />)).toThrow("useShowStatusMessage must be used inside <StatusMessageRegion>");
    } finally {
      window.removeEventListener("error", quiet);
    }
  });
});
