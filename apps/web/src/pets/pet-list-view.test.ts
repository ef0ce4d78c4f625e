import { describe, expect, it } from "vitest";
import { petsListPath } from "../navigation/app-paths.js";
import { PAGE_SIZES, readPetListView, toSearchParams, totalPetsText } from "./pet-list-view.js";

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

  it("reads the category filter and `before`, and keeps `after` when both are given (the API takes one)", () => {
    expect(readPetListView(new URLSearchParams("categoryId=3&before=41"))).toEqual({
      categoryId: 3,
      limit: 20,
      before: 41,
    });
    expect(readPetListView(new URLSearchParams("after=20&before=41"))).toEqual({ limit: 20, after: 20 });
    expect(readPetListView(new URLSearchParams("categoryId=0&before=0"))).toEqual({ limit: 20 });
    expect(readPetListView(new URLSearchParams("categoryId=two"))).toEqual({ limit: 20 });
  });

  it("writes the category and `before` into the URL", () => {
    const view = { status: "sold", categoryId: 2, limit: 50, before: 41 } as const;
    expect(toSearchParams(view).toString()).toBe("status=sold&categoryId=2&limit=50&before=41");
    expect(readPetListView(toSearchParams(view))).toEqual(view);
  });
});

describe("petsListPath", () => {
  it("is the list filtered by category and status, category first", () => {
    expect(petsListPath()).toBe("/pets");
    expect(petsListPath({ status: "sold" })).toBe("/pets?status=sold");
    expect(petsListPath({ categoryId: 1 })).toBe("/pets?categoryId=1");
    expect(petsListPath({ categoryId: 1, status: "available" })).toBe("/pets?categoryId=1&status=available");
  });
});

describe("totalPetsText", () => {
  it("says X-Total-Count in words, with thousands separated", () => {
    expect(totalPetsText("1204")).toBe("1,204 pets");
    expect(totalPetsText("1")).toBe("1 pet");
    expect(totalPetsText("0")).toBe("0 pets");
  });

  it("keeps the + of a count that stopped at its cap (a name search)", () => {
    expect(totalPetsText("10000+")).toBe("10,000+ pets");
  });

  it("is undefined when the API sent none it can read", () => {
    expect(totalPetsText(null)).toBeUndefined();
    expect(totalPetsText("")).toBeUndefined();
    expect(totalPetsText("many")).toBeUndefined();
    expect(totalPetsText("-3")).toBeUndefined();
  });
});
