import { describe, expect, it } from "vitest";
import { fieldErrorsFromServerMessage, validateNewPet } from "./new-pet-form.js";

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

describe("fieldErrorsFromServerMessage", () => {
  it("places each part of the API's 400 message beside its field", () => {
    const message = "Invalid request: body.name: name must not be empty; body.categoryId: categoryId must be at least 1.";
    expect(fieldErrorsFromServerMessage(message)).toEqual({
      name: "Name must not be empty",
      categoryId: "Category ID must be at least 1",
    });
  });

  it("finds nothing in a message about the request as a whole", () => {
    expect(fieldErrorsFromServerMessage("The request body is not valid JSON.")).toEqual({});
  });
});
