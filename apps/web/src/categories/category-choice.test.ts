import type { Category } from "@petstore/contract";
import { describe, expect, it } from "vitest";
import { categoryControls, categoryIdAfterChoice, OTHER_CATEGORY } from "./category-choice.js";

const CATEGORIES: Category[] = [
  { id: 3, name: "Birds" },
  { id: 1, name: "Dogs" },
];

describe("categoryControls", () => {
  it("is Category ID alone without named categories: none yet, or not read", () => {
    expect(categoryControls(undefined, "", undefined)).toEqual({ select: false, idField: true });
    expect(categoryControls([], "7", undefined)).toEqual({ select: false, idField: true });
    expect(categoryControls([], "7", true)).toEqual({ select: false, idField: true });
  });

  it("before any choice, is Category alone for no id or a named one, and with Category ID for an id no category names", () => {
    expect(categoryControls(CATEGORIES, "", undefined)).toEqual({ select: true, idField: false });
    expect(categoryControls(CATEGORIES, " 3 ", undefined)).toEqual({ select: true, idField: false });
    expect(categoryControls(CATEGORIES, "7", undefined)).toEqual({ select: true, idField: true });
  });

  it("follows the choice once one is made", () => {
    expect(categoryControls(CATEGORIES, "3", true)).toEqual({ select: true, idField: true });
    expect(categoryControls(CATEGORIES, "7", false)).toEqual({ select: true, idField: false });
  });
});

describe("categoryIdAfterChoice", () => {
  it("is the id of the category chosen", () => {
    expect(categoryIdAfterChoice(CATEGORIES, "7", "3")).toBe("3");
    expect(categoryIdAfterChoice(CATEGORIES, "3", "")).toBe("");
  });

  it("for Other id…, keeps an id typed but not a named one", () => {
    expect(categoryIdAfterChoice(CATEGORIES, "7", OTHER_CATEGORY)).toBe("7");
    expect(categoryIdAfterChoice(CATEGORIES, "3", OTHER_CATEGORY)).toBe("");
  });
});
