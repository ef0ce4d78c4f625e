import type { PetChange } from "@petstore/contract";
import { describe, expect, it } from "vitest";
import { historySentence } from "./history-sentences.js";

const AT = "2026-11-28T10:00:00.000Z";
const BY_ANA: PetChange["by"] = { kind: "staff", name: "Ana" };

function updated(changes: PetChange["changes"], by: PetChange["by"] = BY_ANA): PetChange {
  return { at: AT, action: "pet.updated", by, changes };
}

describe("historySentence", () => {
  it("says who created, deleted and restored the pet", () => {
    expect(
      historySentence({ at: AT, action: "pet.created", by: { kind: "key", name: "Front desk" }, changes: [] }),
    ).toBe("Created by Front desk");
    expect(historySentence({ at: AT, action: "pet.deleted", by: BY_ANA, changes: [] })).toBe("Deleted by Ana");
    expect(historySentence({ at: AT, action: "pet.restored", by: BY_ANA, changes: [] })).toBe("Restored by Ana");
  });

  it("puts status moves as the buttons do", () => {
    expect(historySentence(updated([{ field: "status", from: "available", to: "sold" }]))).toBe("Marked sold by Ana");
    expect(historySentence(updated([{ field: "status", from: "available", to: "pending" }]))).toBe("Reserved by Ana");
    expect(historySentence(updated([{ field: "status", from: "sold", to: "available" }]))).toBe(
      "Marked available by Ana",
    );
    expect(historySentence(updated([{ field: "status", from: "sold", to: null }]))).toBe("Status removed by Ana");
  });

  it("says what a rename and a new category were", () => {
    expect(historySentence(updated([{ field: "name", from: "Rex", to: "Rex II" }]))).toBe(
      "Renamed from Rex to Rex II by Ana",
    );
    expect(historySentence(updated([{ field: "categoryId", from: 1, to: 4 }]))).toBe(
      "Moved from category 1 to category 4 by Ana",
    );
  });

  it("names the categories of a move where their names are known", () => {
    const names = new Map([
      [1, "Dogs"],
      [4, "Rabbits"],
    ]);
    const label = (categoryId: number) => names.get(categoryId) ?? `Category ${categoryId}`;
    expect(historySentence(updated([{ field: "categoryId", from: 1, to: 4 }]), label)).toBe(
      "Moved from Dogs to Rabbits by Ana",
    );
    expect(historySentence(updated([{ field: "categoryId", from: 7, to: 1 }]), label)).toBe(
      "Moved from Category 7 to Dogs by Ana",
    );
    expect(
      historySentence(
        updated([
          { field: "name", from: "Rex", to: "Rex II" },
          { field: "categoryId", from: 1, to: 4 },
        ]),
        label,
      ),
    ).toBe("Renamed from Rex to Rex II and moved from Dogs to Rabbits by Ana");
  });

  it("joins several changes into one sentence", () => {
    expect(
      historySentence(
        updated([
          { field: "name", from: "Rex", to: "Rex II" },
          { field: "status", from: "available", to: "sold" },
        ]),
      ),
    ).toBe("Renamed from Rex to Rex II and marked sold by Ana");
    expect(
      historySentence(
        updated([
          { field: "name", from: "Rex", to: "Max" },
          { field: "categoryId", from: 1, to: 2 },
          { field: "status", from: null, to: "pending" },
        ]),
      ),
    ).toBe("Renamed from Rex to Max, moved from category 1 to category 2 and reserved by Ana");
  });

  it("says someone when the API names nobody", () => {
    expect(
      historySentence(updated([{ field: "status", from: "available", to: "sold" }], { kind: "key", name: null })),
    ).toBe("Marked sold by someone");
    expect(historySentence({ at: AT, action: "pet.deleted", by: { kind: "system", name: null }, changes: [] })).toBe(
      "Deleted by someone",
    );
  });

  it("still says something of an update that moved no field", () => {
    expect(historySentence(updated([]))).toBe("Changed by Ana");
  });
});
