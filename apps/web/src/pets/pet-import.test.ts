import { describe, expect, it } from "vitest";
import { checkImport, forEachConcurrently, ImportKeyring } from "./pet-import.js";

describe("checkImport", () => {
  it("checks every row with the contract, in the contract's words, numbered by line", () => {
    const checked = checkImport(
      'name,categoryId,status\r\n"Rex, Jr.",4,available\n\n   ,0,\nTom,1.5,adopted\nMia,2,\n',
    );
    expect(checked).toEqual({
      ok: true,
      rows: [
        {
          line: 2,
          values: { name: "Rex, Jr.", categoryId: "4", status: "available" },
          result: { ok: true, pet: { name: "Rex, Jr.", categoryId: 4, status: "available" } },
        },
        {
          line: 4,
          values: { name: "   ", categoryId: "0", status: "" },
          result: { ok: false, error: "Name must not be empty; Category ID must be at least 1" },
        },
        {
          line: 5,
          values: { name: "Tom", categoryId: "1.5", status: "adopted" },
          result: { ok: false, error: "Category ID must be an integer; Status must be available, pending or sold" },
        },
        {
          line: 6,
          values: { name: "Mia", categoryId: "2", status: "" },
          result: { ok: true, pet: { name: "Mia", categoryId: 2 } },
        },
      ],
    });
  });

  it("takes the header's columns in any order, and flags a row with too few or too many fields", () => {
    const checked = checkImport("status, categoryId ,name\nsold,3,Rex\nsold,3\n");
    expect(checked.ok && checked.rows.map((row) => row.result)).toEqual([
      { ok: true, pet: { name: "Rex", categoryId: 3, status: "sold" } },
      { ok: false, error: "Has 2 fields; the header has 3." },
    ]);
  });

  it("refuses text without the header, without rows, or with an unclosed quote", () => {
    const header = "The first line must be the header name,categoryId,status.";
    expect(checkImport("")).toEqual({ ok: false, problem: header });
    expect(checkImport("Rex,4,sold\n")).toEqual({ ok: false, problem: header });
    expect(checkImport("name,categoryId\nRex,4\n")).toEqual({ ok: false, problem: header });
    expect(checkImport("name,categoryId,status,owner\n")).toEqual({ ok: false, problem: header });
    expect(checkImport("name,categoryId,status\n\n")).toEqual({
      ok: false,
      problem: "There are no rows under the header.",
    });
    expect(checkImport('name,categoryId,status\n"Rex,4,sold\n')).toEqual({
      ok: false,
      problem: "Line 2: a quoted field is never closed.",
    });
  });
});

describe("ImportKeyring", () => {
  const counter = () => {
    let issued = 0;
    return () => `key-${++issued}`;
  };

  it("gives each row its own key, identical rows included, and the same keys on the next Check", () => {
    const keyring = new ImportKeyring(counter());
    const rex = { name: "Rex", categoryId: 4 };
    const mia = { name: "Mia", categoryId: 2, status: "sold" as const };
    expect(keyring.keysFor([rex, mia, rex])).toEqual(["key-1", "key-2", "key-3"]);
    // Rows added, reordered or edited elsewhere do not move a row's key.
    expect(keyring.keysFor([mia, { name: "Tom", categoryId: 1 }, rex, rex])).toEqual([
      "key-2",
      "key-4",
      "key-1",
      "key-3",
    ]);
    // An edited row is another create: another key.
    expect(keyring.keysFor([{ ...mia, status: "pending" }])).toEqual(["key-5"]);
  });
});

describe("forEachConcurrently", () => {
  it("keeps at most `concurrency` items in flight and does them all", async () => {
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    await forEachConcurrently([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4, async (item) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, item % 3));
      inFlight--;
      done.push(item);
    });
    expect(most).toBe(4);
    expect(done.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("starts nothing new once told to stop", async () => {
    const started: number[] = [];
    await forEachConcurrently(
      [1, 2, 3, 4, 5],
      2,
      async (item) => void started.push(item),
      () => started.length >= 2,
    );
    expect(started).toEqual([1, 2]);
  });
});
