import type { Pet } from "@petstore/contract";
import { describe, expect, it } from "vitest";
import {
  bulkActionAsksFirst,
  bulkConfirmTitle,
  bulkSummary,
  undoSummary,
  type BulkAction,
  type PetOutcome,
} from "./bulk-changes.js";
import { STATUS_ACTIONS } from "./pet-patches.js";

const [RESERVE, SELL, MAKE_AVAILABLE] = STATUS_ACTIONS.map((action): BulkAction => ({ kind: "status", action }));
const DELETE: BulkAction = { kind: "delete" };
const REX: Pet = { id: 1, name: "Rex", categoryId: 1, status: "available" };
const BELLA: Pet = { id: 2, name: "Bella", categoryId: 2, status: "pending" };
const MILO: Pet = { id: 3, name: "Milo", categoryId: 3 };

const changed = (pet: Pet): PetOutcome => ({ pet, result: "changed" });

describe("bulkSummary", () => {
  it("says how many changed, all of them", () => {
    expect(bulkSummary(RESERVE!, [changed(REX), changed(MILO)], false)).toEqual({
      message: "Reserved 2 pets.",
      details: [],
      tone: "success",
      undoable: [REX, MILO],
    });
    expect(bulkSummary(DELETE, [changed(REX)], false).message).toBe("Deleted 1 pet.");
    expect(bulkSummary(MAKE_AVAILABLE!, [changed(BELLA)], false).message).toBe("Marked 1 pet available.");
  });

  it("names each pet refused with the reason, and each that already had the status", () => {
    const summary = bulkSummary(
      RESERVE!,
      [
        changed(REX),
        { pet: BELLA, result: "unchanged" },
        { pet: MILO, result: "refused", reason: "status is sold, not available." },
      ],
      false,
    );
    expect(summary.message).toBe("Reserved 1 of 3 pets.");
    expect(summary.details).toEqual([
      "Milo was not changed: status is sold, not available.",
      "Bella was already pending.",
    ]);
    expect(summary.tone).toBe("info");
    expect(summary.undoable).toEqual([REX]);
  });

  it("offers no Undo after a sale by a session that may not return a sold pet, and says why", () => {
    const summary = bulkSummary(SELL!, [changed(REX), changed(BELLA)], false);
    expect(summary.message).toBe("Marked 2 pets sold.");
    expect(summary.details).toEqual(["Only an admin can return a sold pet."]);
    expect(summary.undoable).toEqual([]);
    expect(bulkSummary(SELL!, [changed(REX)], true).undoable).toEqual([REX]);
  });

  it("says a pet was not deleted when a delete is refused", () => {
    const summary = bulkSummary(DELETE, [{ pet: REX, result: "refused", reason: "Pet 1 not found." }], true);
    expect(summary.message).toBe("Deleted 0 of 1 pet.");
    expect(summary.details).toEqual(["Rex was not deleted: Pet 1 not found."]);
    expect(summary.undoable).toEqual([]);
  });
});

describe("undoSummary", () => {
  it("says how many are back, and each that could not be", () => {
    expect(undoSummary(DELETE, [changed(REX), changed(MILO)])).toEqual({
      message: "Restored 2 pets.",
      details: [],
      tone: "success",
    });
    expect(
      undoSummary(RESERVE!, [changed(REX), { pet: MILO, result: "refused", reason: "status is sold, not pending." }]),
    ).toEqual({
      message: "Undid the change to 1 of 2 pets.",
      details: ["Milo was not changed back: status is sold, not pending."],
      tone: "info",
    });
  });
});

describe("confirming", () => {
  it("asks before selling and deleting only", () => {
    expect([RESERVE!, SELL!, MAKE_AVAILABLE!, DELETE].map(bulkActionAsksFirst)).toEqual([false, true, false, true]);
  });

  it("titles the dialog with the count", () => {
    expect(bulkConfirmTitle(SELL!, 3)).toBe("Mark 3 pets sold");
    expect(bulkConfirmTitle(DELETE, 2)).toBe("Delete 2 pets");
    expect(bulkConfirmTitle(DELETE, 1)).toBe("Delete 1 pet");
    expect(bulkConfirmTitle(RESERVE!, 1)).toBe("Reserve 1 pet");
  });
});
