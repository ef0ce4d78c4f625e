import { act, render, screen } from "@testing-library/react";
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
