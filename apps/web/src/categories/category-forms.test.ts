import { describe, expect, it } from "vitest";
import { newCategoryFieldErrorsFromIssues, validateNewCategory, validateRename } from "./category-forms.js";

describe("validateNewCategory", () => {
  it("sends the name trimmed, and the id only when one is typed", () => {
    expect(validateNewCategory({ name: "  Reptiles ", id: "" })).toEqual({ success: true, data: { name: "Reptiles" } });
    expect(validateNewCategory({ name: "Reptiles", id: " 42 " })).toEqual({
      success: true,
      data: { name: "Reptiles", id: 42 },
    });
  });

  it("says what is wrong in the words of the fields' labels", () => {
    const result = validateNewCategory({ name: " ", id: "0" });
    expect(result).toEqual({ success: false, errors: { name: "Name must not be empty", id: "ID must be at least 1" } });
    expect(validateNewCategory({ name: "Reptiles", id: "4.5" })).toEqual({
      success: false,
      errors: { id: "ID must be an integer" },
    });
  });

  it("reads the API's 400 issues for the fields", () => {
    expect(
      newCategoryFieldErrorsFromIssues([
        { field: "body.id", message: "categoryId must be at most 9007199254740991" },
        { field: "query.x", message: "unknown" },
      ]),
    ).toEqual({ id: "ID must be at most 9007199254740991" });
  });
});

describe("validateRename", () => {
  it("trims the new name, and names the field in its message", () => {
    expect(validateRename(" Hounds ")).toEqual({ success: true, data: { name: "Hounds" } });
    expect(validateRename("")).toEqual({ success: false, error: "New name must not be empty" });
  });
});
