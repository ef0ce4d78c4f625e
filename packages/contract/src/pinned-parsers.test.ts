import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PetPatch } from "./pet-patch.js";
import {
  pinnedCreatePetHeaders,
  pinnedListPetsQuery,
  pinnedNewPet,
  pinnedPetIdParams,
  pinnedPetPatch,
} from "./pinned-parsers.js";
import { CreatePetHeaders, GetPetParams, ListPetsQuery, MAX_ID, NewPet } from "./schemas.js";

/**
 * A pinned parser either gives up (undefined) or returns what its schema's `parse` returns, keys in the
 * same order: JSON.stringify compares both.
 */
function expectSameAsSchema(
  pinned: (input: unknown) => unknown,
  schema: { safeParse: (input: unknown) => { success: boolean; data?: unknown } },
  input: unknown,
) {
  const fast = pinned(input);
  if (fast === undefined) return;
  const parsed = schema.safeParse(input);
  expect(parsed.success, JSON.stringify(input)).toBe(true);
  expect(JSON.stringify(fast), JSON.stringify(input)).toBe(JSON.stringify(parsed.data));
}

/** Strings near every rule's edges: digits with and without leading zeros, around the bounds, signs, spaces, exponents. */
const edgyNumber = fc.oneof(
  fc.nat({ max: 200 }).map(String),
  fc.constantFrom(
    "0",
    "00",
    "007",
    "1",
    "20",
    "99",
    "100",
    "101",
    "999",
    "1000",
    "-1",
    "+1",
    " 1",
    "1 ",
    "1.0",
    "1e2",
    "0x10",
    "",
    "NaN",
  ),
  fc.constantFrom(String(MAX_ID), String(MAX_ID + 1), "9007199254740993", "99999999999999999", "1".padStart(17, "0")),
  fc.bigInt({ min: 0n, max: 10n ** 18n }).map(String),
  fc.string(),
);
const status = fc.oneof(
  fc.constantFrom("available", "pending", "sold", "AVAILABLE", "Sold", "", " sold", "adopted"),
  fc.string(),
);
const value = (of: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 6, arbitrary: of },
    fc.array(of, { maxLength: 2 }),
    fc.constant(undefined),
    fc.dictionary(fc.string(), of),
  );

describe("pinnedPetIdParams", () => {
  it("returns GetPetParams's parse of every input it takes, and takes the plain ids", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ petId: value(edgyNumber) }),
          fc.dictionary(fc.constantFrom("petId", "id", "x"), edgyNumber),
          fc.anything(),
        ),
        (input) => expectSameAsSchema(pinnedPetIdParams, GetPetParams, input),
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
    fc.assert(
      fc.property(fc.oneof({ weight: 8, arbitrary: query }, fc.anything()), (input) =>
        expectSameAsSchema(pinnedListPetsQuery, ListPetsQuery, input),
      ),
      {
        numRuns: 10000,
      },
    );
    expect(pinnedListPetsQuery({})).toEqual({ limit: 20 });
    expect(pinnedListPetsQuery({ status: "available", limit: "100" })).toEqual({ limit: 100, status: "available" });
    expect(pinnedListPetsQuery({ after: "0", limit: "1" })).toEqual({ limit: 1, after: 0 });
    expect(pinnedListPetsQuery({ limit: "5", after: "20", status: "sold" })).toEqual({
      limit: 5,
      status: "sold",
      after: 20,
    });
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

describe("pinnedNewPet", () => {
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 110 }) },
    fc.string({ unit: "binary", maxLength: 12 }),
    fc.constantFrom(
      "Rex",
      " Rex ",
      "\tRex\n",
      "",
      "   ",
      "a".repeat(100),
      "a".repeat(101),
      ` ${"a".repeat(100)} `,
      "Re\u202Ex",
      "\ud800",
      "\ud83d\udc36",
      "a\u0000b",
      "Zoë",
    ),
  );
  const categoryId = fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: -2, max: 1000 }) },
    fc.constantFrom(0, 1, 1.5, -1, MAX_ID, MAX_ID + 1, 2 ** 60, Number.MIN_VALUE),
    fc.double(),
    fc.string({ maxLength: 3 }),
  );
  const status = fc.oneof(
    fc.constantFrom("available", "pending", "sold", "Sold", "", "lost"),
    fc.constant(null),
    fc.integer(),
  );
  const body = fc.record(
    {
      name: fc.oneof({ weight: 6, arbitrary: name }, fc.anything()),
      categoryId,
      status,
      id: fc.integer(),
      extra: fc.anything(),
    },
    { requiredKeys: [] },
  );

  it("returns NewPet's parse of every body it takes, and takes the plain bodies", () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 9, arbitrary: body }, fc.anything()), (input) =>
        expectSameAsSchema(pinnedNewPet, NewPet, input),
      ),
      { numRuns: 10000 },
    );
    expect(pinnedNewPet({ name: " Rex ", categoryId: 1 })).toEqual({ name: "Rex", categoryId: 1 });
    expect(pinnedNewPet({ name: "Rex", categoryId: 7, status: "sold", id: 99 })).toEqual({
      name: "Rex",
      categoryId: 7,
      status: "sold",
    });
  });

  it("leaves every refusal to the schema", () => {
    for (const input of [
      { name: "", categoryId: 1 },
      { name: "a".repeat(101), categoryId: 1 },
      { name: "Re\u202Ex", categoryId: 1 },
      { name: "Rex", categoryId: 0 },
      { name: "Rex", categoryId: 1.5 },
      { name: "Rex", categoryId: "1" },
      { name: "Rex", categoryId: 1, status: null },
      { name: "Rex", categoryId: 1, status: "lost" },
      { categoryId: 1 },
      [],
    ]) {
      expect(pinnedNewPet(input), JSON.stringify(input)).toBeUndefined();
    }
  });
});

describe("pinnedCreatePetHeaders", () => {
  it("returns CreatePetHeaders's parse of the headers it takes (those without an Idempotency-Key), and only of those", () => {
    const headers = fc.dictionary(
      fc.constantFrom("idempotency-key", "content-type", "authorization", "x-other"),
      fc.oneof(fc.string(), fc.constant("")),
      { maxKeys: 4 },
    );
    fc.assert(
      fc.property(fc.oneof({ weight: 9, arbitrary: headers }, fc.anything()), (input) =>
        expectSameAsSchema(pinnedCreatePetHeaders, CreatePetHeaders, input),
      ),
      { numRuns: 5000 },
    );
    expect(pinnedCreatePetHeaders({ "content-type": "application/json", authorization: "Bearer x" })).toEqual({});
    expect(pinnedCreatePetHeaders({ "idempotency-key": "k-1" })).toBeUndefined();
    expect(pinnedCreatePetHeaders({ "idempotency-key": "" })).toBeUndefined();
  });
});

describe("pinnedPetPatch", () => {
  const value = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.constantFrom(
      "available",
      "sold",
      "Rex",
      "",
      "a".repeat(1000),
      "a".repeat(1001),
      "Re\u202Ex",
      "a\u0000b",
      "Zo\u00eb",
    ),
    fc.constant(null),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.anything(),
  );
  const operation = fc.record(
    {
      op: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom("test", "replace", "add", "remove") },
        fc.constantFrom("move", "copy", "Test", ""),
        fc.anything(),
      ),
      path: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom("/name", "/categoryId", "/status") },
        fc.constantFrom("/id", "name", "/status/0", ""),
        fc.anything(),
      ),
      value,
      from: fc.string(),
      extra: fc.anything(),
    },
    { requiredKeys: [] },
  );
  // Well-formed operations too, so that whole patches of them, taken by the pinned parser, are generated often.
  const wellFormed = fc.oneof(
    fc.record({
      op: fc.constantFrom("test", "replace", "add"),
      path: fc.constantFrom("/name", "/categoryId", "/status"),
      value,
    }),
    fc.constant({ op: "remove", path: "/status" }),
  );
  const patch = fc.array(
    fc.oneof({ weight: 6, arbitrary: wellFormed }, { weight: 3, arbitrary: operation }, fc.anything()),
    { maxLength: 12 },
  );

  it("returns PetPatch's parse of every patch it takes, and takes the plain patches", () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 9, arbitrary: patch }, fc.anything()), (input) =>
        expectSameAsSchema(pinnedPetPatch, PetPatch, input),
      ),
      { numRuns: 10000 },
    );
    const sale = [
      { op: "test", path: "/status", value: "pending" },
      { op: "replace", path: "/status", value: "sold" },
    ];
    expect(pinnedPetPatch(sale)).toEqual(sale);
    expect(
      pinnedPetPatch([
        { op: "test", path: "/categoryId", value: 7 },
        { op: "replace", path: "/name", value: "Rex II" },
        { op: "remove", path: "/status" },
      ]),
    ).toEqual([
      { op: "test", path: "/categoryId", value: 7 },
      { op: "replace", path: "/name", value: "Rex II" },
      { op: "remove", path: "/status" },
    ]);
    expect(pinnedPetPatch([{ op: "add", path: "/status", value: null }])).toEqual([
      { op: "add", path: "/status", value: null },
    ]);
  });

  it("leaves every refusal to the schema", () => {
    for (const input of [
      [],
      Array.from({ length: 11 }, () => ({ op: "test", path: "/name", value: "Rex" })),
      [{ op: "move", path: "/name", from: "/status" }],
      [{ op: "remove", path: "/name" }],
      [{ op: "remove", path: "/status", value: null }],
      [{ op: "test", path: "/name" }],
      [{ op: "test", path: "/id", value: 1 }],
      [{ op: "test", path: "/name", value: true }],
      [{ op: "test", path: "/name", value: "a".repeat(1001) }],
      [{ op: "test", path: "/name", value: "Re\u202Ex" }],
      [{ op: "test", path: "/name", value: "Rex", extra: 1 }],
      { op: "test", path: "/name", value: "Rex" },
      null,
    ]) {
      expect(pinnedPetPatch(input), JSON.stringify(input)).toBeUndefined();
    }
  });
});
