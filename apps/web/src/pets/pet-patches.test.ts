import { PetPatch } from "@petstore/contract";
import { describe, expect, it } from "vitest";
import { editPatch, statusActionsFor, statusChangePatch } from "./pet-patches.js";

const labels = (actions: ReturnType<typeof statusActionsFor>) => actions.map((action) => action.label);

describe("statusActionsFor", () => {
  it("offers every move but to the status the pet has", () => {
    expect(labels(statusActionsFor("available", false))).toEqual(["Reserve", "Mark sold"]);
    expect(labels(statusActionsFor("pending", false))).toEqual(["Mark sold", "Mark available"]);
    expect(labels(statusActionsFor(undefined, false))).toEqual(["Reserve", "Mark sold", "Mark available"]);
  });

  it("offers a way out of sold only to a session that may return a sold pet", () => {
    expect(statusActionsFor("sold", false)).toEqual([]);
    expect(labels(statusActionsFor("sold", true))).toEqual(["Reserve", "Mark available"]);
  });
});

describe("statusChangePatch", () => {
  it("tests the status shown, then replaces it", () => {
    const patch = statusChangePatch("available", "sold");
    expect(patch).toEqual([
      { op: "test", path: "/status", value: "available" },
      { op: "replace", path: "/status", value: "sold" },
    ]);
    expect(PetPatch.safeParse(patch).success).toBe(true);
  });

  it("writes no status as null, both ways", () => {
    expect(statusChangePatch(undefined, "pending")).toEqual([
      { op: "test", path: "/status", value: null },
      { op: "replace", path: "/status", value: "pending" },
    ]);
    expect(statusChangePatch("pending", undefined)[1]).toEqual({ op: "replace", path: "/status", value: null });
  });
});

describe("editPatch", () => {
  const shown = { name: "Rex", categoryId: 1, status: "available" as const };

  it("tests every field it showed, then replaces only the changed ones", () => {
    const patch = editPatch(shown, { name: "Rex II", categoryId: 1, status: "available" });
    expect(patch).toEqual([
      { op: "test", path: "/name", value: "Rex" },
      { op: "test", path: "/categoryId", value: 1 },
      { op: "test", path: "/status", value: "available" },
      { op: "replace", path: "/name", value: "Rex II" },
    ]);
    expect(PetPatch.safeParse(patch).success).toBe(true);
  });

  it("replaces all three, a status taken away as null, within the contract's ten operations", () => {
    const patch = editPatch(shown, { name: "Max", categoryId: 3, status: undefined });
    expect(patch?.slice(3)).toEqual([
      { op: "replace", path: "/name", value: "Max" },
      { op: "replace", path: "/categoryId", value: 3 },
      { op: "replace", path: "/status", value: null },
    ]);
    expect(PetPatch.safeParse(patch).success).toBe(true);
  });

  it("tests a missing status as null", () => {
    expect(
      editPatch({ name: "Milo", categoryId: 3, status: undefined }, { name: "Milo", categoryId: 3, status: "sold" }),
    ).toContainEqual({
      op: "test",
      path: "/status",
      value: null,
    });
  });

  it("is null when nothing changed", () => {
    expect(editPatch(shown, { ...shown })).toBeNull();
  });
});
