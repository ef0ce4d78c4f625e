import { describe, expect, it } from "vitest";
import { expiresAtOfDay, validateNewKey } from "./new-key-form.js";

describe("the new-key form's values", () => {
  it("a chosen day means the key works through it: it expires at the next local midnight", () => {
    const expiresAt = expiresAtOfDay("2031-01-01");
    expect(expiresAt).toBe(new Date(2031, 0, 2).toISOString());
    expect(expiresAtOfDay("")).toBeUndefined();
    expect(expiresAtOfDay("soon")).toBe("soon");
  });

  it("is checked with the contract's NewApiKey, each problem in the words of its field's label", () => {
    expect(validateNewKey({ name: "  Front desk ", scope: "read", expiresAt: "" })).toEqual({
      success: true,
      data: { name: "Front desk", scope: "read" },
    });
    expect(validateNewKey({ name: " ", scope: "owner", expiresAt: "2001-01-01" })).toEqual({
      success: false,
      errors: {
        name: "Name must not be empty",
        scope: "Scope must be read, write or admin",
        expiresAt: "Expires must be in the future",
      },
    });
  });
});
