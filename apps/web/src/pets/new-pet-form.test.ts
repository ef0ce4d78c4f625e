import { describe, expect, it } from "vitest";
import { fieldErrorsFromIssues, validateNewPet } from "./new-pet-form.js";

describe("validateNewPet", () => {
  it("accepts a name and category, trimming the name as the API will", () => {
    expect(validateNewPet({ name: "  Rex ", categoryId: "3", status: "" })).toEqual({
      success: true,
      data: { name: "Rex", categoryId: 3 },
    });
    expect(validateNewPet({ name: "Rex", categoryId: "3", status: "sold" })).toMatchObject({
      data: { status: "sold" },
    });
  });

  it("reports every field the contract refuses, in the form's words", () => {
    expect(validateNewPet({ name: "   ", categoryId: "", status: "" })).toEqual({
      success: false,
      errors: { name: "Name must not be empty", categoryId: "Category ID is required" },
    });
    expect(validateNewPet({ name: "x".repeat(101), categoryId: "0", status: "" })).toEqual({
      success: false,
      errors: { name: "Name must be at most 100 characters", categoryId: "Category ID must be at least 1" },
    });
  });

  it("lets the schema judge category ids that are not whole numbers", () => {
    for (const categoryId of ["1.5", "abc", "1e3"]) {
      const result = validateNewPet({ name: "Rex", categoryId, status: "" });
      expect(result).toEqual({ success: false, errors: { categoryId: "Category ID must be an integer" } });
    }
  });
});

describe("fieldErrorsFromIssues", () => {
  it("places each issue of the API's 400 beside its field", () => {
    const issues = [
      { field: "body.name", message: "name must not be empty" },
      { field: "body.categoryId", message: "categoryId must be at least 1" },
    ];
    expect(fieldErrorsFromIssues(issues)).toEqual({
      name: "Name must not be empty",
      categoryId: "Category ID must be at least 1",
    });
  });

  it("finds nothing in issues about the request as a whole", () => {
    expect(
      fieldErrorsFromIssues([{ field: "body", message: "must be a JSON object with name and categoryId" }]),
    ).toEqual({});
    expect(fieldErrorsFromIssues([])).toEqual({});
  });
});
