import type { Inventory } from "@petstore/contract";
import { describe, expect, it } from "vitest";
import { formatCount, petsCount } from "../design-system/counts.js";
import { categoryRows, countPath, STATUS_COLUMNS } from "./inventory-figures.js";
import { barHeight } from "./StatusChart.js";

const counts = (available: number, pending: number, sold: number, none: number) => ({ available, pending, sold, none });

const INVENTORY: Inventory = {
  total: 19,
  byStatus: counts(8, 5, 4, 2),
  byCategory: [
    { categoryId: 1, name: "Dogs", total: 10, byStatus: counts(5, 3, 1, 1) },
    { categoryId: 77, name: null, total: 6, byStatus: counts(2, 2, 2, 0) },
  ],
  other: { total: 3, byStatus: counts(1, 0, 1, 1) },
};

const [available, , , none] = STATUS_COLUMNS;

describe("categoryRows", () => {
  it("lists the categories in the API's order, an id without a name as Category <id>, then Other", () => {
    expect(categoryRows(INVENTORY).map((row) => [row.label, row.categoryId, row.total])).toEqual([
      ["Dogs", 1, 10],
      ["Category 77", 77, 6],
      ["Other", undefined, 3],
    ]);
  });

  it("leaves Other out when it holds no pet", () => {
    const rows = categoryRows({ ...INVENTORY, other: { total: 0, byStatus: counts(0, 0, 0, 0) } });
    expect(rows.map((row) => row.label)).toEqual(["Dogs", "Category 77"]);
  });
});

describe("countPath", () => {
  const [dogs, unnamed, other] = categoryRows(INVENTORY);

  it("opens the list filtered by the count's category and status", () => {
    expect(countPath(dogs, available)).toBe("/pets?categoryId=1&status=available");
    expect(countPath(unnamed, undefined)).toBe("/pets?categoryId=77");
    expect(countPath(undefined, available)).toBe("/pets?status=available");
    expect(countPath(undefined, undefined)).toBe("/pets");
  });

  it("is undefined where no list filter selects the pets: no status, and Other", () => {
    expect(countPath(dogs, none)).toBeUndefined();
    expect(countPath(undefined, none)).toBeUndefined();
    expect(countPath(other, available)).toBeUndefined();
    expect(countPath(other, undefined)).toBeUndefined();
  });
});

describe("formatCount and barHeight", () => {
  it("writes thousands with commas, and pets in the singular for one", () => {
    expect(formatCount(1204)).toBe("1,204");
    expect(formatCount(0)).toBe("0");
    expect(petsCount(1)).toBe("1 pet");
    expect(petsCount(1204)).toBe("1,204 pets");
  });

  it("draws bars in proportion to the tallest, and a count above zero always visibly", () => {
    expect(barHeight(0, 10)).toBe(0);
    expect(barHeight(10, 10)).toBe(140);
    expect(barHeight(5, 10)).toBe(70);
    expect(barHeight(1, 100_000)).toBe(3);
    expect(barHeight(0, 0)).toBe(0);
  });
});
