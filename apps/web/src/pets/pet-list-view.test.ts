import { describe, expect, it } from "vitest";
import { PAGE_SIZES, readPetListView, toSearchParams } from "./pet-list-view.js";

describe("the pet list view in the URL", () => {
  it("offers the page sizes docs/interface.md names, derived from the contract's limits", () => {
    expect(PAGE_SIZES).toEqual([20, 50, 100]);
  });

  it("defaults to every status, 20 per page, from the first pet", () => {
    expect(readPetListView(new URLSearchParams())).toEqual({ status: undefined, limit: 20, after: undefined });
  });

  it("reads status, limit and after", () => {
    expect(readPetListView(new URLSearchParams("status=sold&limit=50&after=40"))).toEqual({
      status: "sold",
      limit: 50,
      after: 40,
    });
  });

  it("falls back to defaults for values the select or the contract would not accept", () => {
    expect(readPetListView(new URLSearchParams("status=lost&limit=7&after=-1"))).toEqual({
      status: undefined,
      limit: 20,
      after: undefined,
    });
  });

  it("round-trips through search params", () => {
    const view = { status: "pending", limit: 100, after: 3 } as const;
    expect(readPetListView(toSearchParams(view))).toEqual(view);
    expect(toSearchParams({ status: undefined, limit: 20, after: undefined }).toString()).toBe("limit=20");
  });
});
