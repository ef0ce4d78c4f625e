import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pinnedListPetsQuery, pinnedPetIdParams } from "./pinned-parsers.js";
import { GetPetParams, ListPetsQuery, MAX_ID } from "./schemas.js";

/**
 * A pinned parser either gives up (undefined) or returns what its schema's `parse` returns, keys in the
 * same order: JSON.stringify compares both.
 */
function expectSameAsSchema(pinned: (input: unknown) => unknown, schema: { safeParse: (input: unknown) => { success: boolean; data?: unknown } }, input: unknown) {
  const fast = pinned(input);
  if (fast === undefined) return;
  const parsed = schema.safeParse(input);
  expect(parsed.success, JSON.stringify(input)).toBe(true);
  expect(JSON.stringify(fast), JSON.stringify(input)).toBe(JSON.stringify(parsed.data));
}

/** Strings near every rule's edges: digits with and without leading zeros, around the bounds, signs, spaces, exponents. */
const edgyNumber = fc.oneof(
  fc.nat({ max: 200 }).map(String),
  fc.constantFrom("0", "00", "007", "1", "20", "99", "100", "101", "999", "1000", "-1", "+1", " 1", "1 ", "1.0", "1e2", "0x10", "", "NaN"),
  fc.constantFrom(String(MAX_ID), String(MAX_ID + 1), "9007199254740993", "99999999999999999", "1".padStart(17, "0")),
  fc.bigInt({ min: 0n, max: 10n ** 18n }).map(String),
  fc.string(),
);
const status = fc.oneof(fc.constantFrom("available", "pending", "sold", "AVAILABLE", "Sold", "", " sold", "adopted"), fc.string());
const value = (of: fc.Arbitrary<string>) => fc.oneof({ weight: 6, arbitrary: of }, fc.array(of, { maxLength: 2 }), fc.constant(undefined), fc.dictionary(fc.string(), of));

describe("pinnedPetIdParams", () => {
  it("returns GetPetParams's parse of every input it takes, and takes the plain ids", () => {
    fc.assert(
      fc.property(fc.oneof(fc.record({ petId: value(edgyNumber) }), fc.dictionary(fc.constantFrom("petId", "id", "x"), edgyNumber), fc.anything()), (input) =>
        expectSameAsSchema(pinnedPetIdParams, GetPetParams, input),
      ),
      { numRuns: 5000 },
    );
    expect(pinnedPetIdParams({ petId: "4242" })).toEqual({ petId: 4242 });
    expect(pinnedPetIdParams({ petId: String(MAX_ID) })).toEqual({ petId: MAX_ID });
  });

  it("leaves every refusal and rarer spelling to the schema", () => {
    for (const petId of ["0", "007", "-1", "1.0", "1e3", " 1", "", String(MAX_ID + 1), "12345678901234567"]) {
      expect(pinnedPetIdParams({ petId }), petId).toBeUndefined();
    }
    expect(pinnedPetIdParams(null)).toBeUndefined();
    expect(pinnedPetIdParams({ petId: 7 })).toBeUndefined();
  });
});

describe("pinnedListPetsQuery", () => {
  it("returns ListPetsQuery's parse of every input it takes, and takes the plain queries", () => {
    const query = fc.dictionary(
      fc.constantFrom("limit", "status", "after", "name", "other", "__proto__", "constructor"),
      fc.oneof(value(edgyNumber), value(status)),
      { maxKeys: 4 },
    );
    fc.assert(fc.property(fc.oneof({ weight: 8, arbitrary: query }, fc.anything()), (input) => expectSameAsSchema(pinnedListPetsQuery, ListPetsQuery, input)), {
      numRuns: 10000,
    });
    expect(pinnedListPetsQuery({})).toEqual({ limit: 20 });
    expect(pinnedListPetsQuery({ status: "available", limit: "100" })).toEqual({ limit: 100, status: "available" });
    expect(pinnedListPetsQuery({ after: "0", limit: "1" })).toEqual({ limit: 1, after: 0 });
    expect(pinnedListPetsQuery({ limit: "5", after: "20", status: "sold" })).toEqual({ limit: 5, status: "sold", after: 20 });
  });

  it("leaves every refusal, a name search and anything unknown to the schema", () => {
    for (const input of [
      { limit: "0" },
      { limit: "101" },
      { limit: "020" },
      { limit: ["1", "2"] },
      { status: "Available" },
      { after: "-1" },
      { after: "00" },
      { after: String(MAX_ID + 1) },
      { name: "rex" },
      { limit: "5", sort: "id" },
      null,
      "limit=5",
    ]) {
      expect(pinnedListPetsQuery(input), JSON.stringify(input)).toBeUndefined();
    }
  });
});
