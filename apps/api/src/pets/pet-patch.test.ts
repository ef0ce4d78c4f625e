import { PetPatch, type Pet } from "@petstore/contract";
import { describe, expect, it } from "vitest";
import { applyPetPatch, RETURN_FROM_SOLD_MESSAGE } from "./pet-patch.js";

const rex: Pet = { id: 7, name: "Rex", categoryId: 2, status: "available" };
const write = { mayReturnSold: false };
const admin = { mayReturnSold: true };
const patch = (operations: unknown) => PetPatch.parse(operations);

describe("a pet's JSON Patch", () => {
  it("a test after a replace sees the name as it will be stored, trimmed", () => {
    expect(
      applyPetPatch(
        rex,
        patch([
          { op: "replace", path: "/name", value: " Max " },
          { op: "test", path: "/name", value: " Max " },
        ]),
        admin,
      ),
    ).toMatchObject({ kind: "applied", pet: { name: "Max" } });
    expect(
      applyPetPatch(
        rex,
        patch([
          { op: "replace", path: "/name", value: " Max " },
          { op: "test", path: "/name", value: "Max" },
        ]),
        admin,
      ),
    ).toMatchObject({ kind: "applied" });
  });

  it("reserves and sells with a test of the status shown; the answer names what moved", () => {
    expect(
      applyPetPatch(
        rex,
        patch([
          { op: "test", path: "/status", value: "available" },
          { op: "replace", path: "/status", value: "pending" },
        ]),
        write,
      ),
    ).toEqual({
      kind: "applied",
      pet: { ...rex, status: "pending" },
      changes: [{ field: "status", from: "available", to: "pending" }],
    });
    const corrected = applyPetPatch(
      rex,
      patch([
        { op: "replace", path: "/name", value: "  Rex II " },
        { op: "add", path: "/categoryId", value: 3 },
      ]),
      write,
    );
    expect(corrected).toEqual({
      kind: "applied",
      pet: { id: 7, name: "Rex II", categoryId: 3, status: "available" },
      changes: [
        { field: "name", from: "Rex", to: "Rex II" },
        { field: "categoryId", from: 2, to: 3 },
      ],
    });
  });

  it("a failed test is a conflict naming the field, the value stored and the value tested, whatever follows", () => {
    const sold = { ...rex, status: "sold" as const };
    expect(
      applyPetPatch(
        sold,
        patch([
          { op: "test", path: "/status", value: "available" },
          { op: "replace", path: "/status", value: "pending" },
        ]),
        admin,
      ),
    ).toEqual({
      kind: "conflict",
      field: "status",
      message: 'status is "sold", not "available"',
    });
    expect(
      applyPetPatch(
        { id: 1, name: "Tom", categoryId: 1 },
        patch([{ op: "test", path: "/status", value: "pending" }]),
        write,
      ),
    ).toMatchObject({
      kind: "conflict",
      message: 'status is no status, not "pending"',
    });
    // Operations apply in order: a test sees what an earlier operation of the patch set.
    expect(
      applyPetPatch(
        rex,
        patch([
          { op: "replace", path: "/name", value: "Max" },
          { op: "test", path: "/name", value: "Rex" },
        ]),
        write,
      ),
    ).toMatchObject({
      kind: "conflict",
      message: 'name is "Max", not "Rex"',
    });
    expect(applyPetPatch(rex, patch([{ op: "test", path: "/categoryId", value: "2" }]), write)).toMatchObject({
      kind: "conflict",
      field: "categoryId",
    });
  });

  it("null stands for no status: tested, set and removed; removing an absent status applies", () => {
    const none: Pet = { id: 1, name: "Tom", categoryId: 1 };
    expect(
      applyPetPatch(
        none,
        patch([
          { op: "test", path: "/status", value: null },
          { op: "replace", path: "/status", value: "pending" },
        ]),
        write,
      ),
    ).toMatchObject({
      kind: "applied",
      pet: { ...none, status: "pending" },
      changes: [{ field: "status", from: null, to: "pending" }],
    });
    expect(applyPetPatch(rex, patch([{ op: "add", path: "/status", value: null }]), write)).toEqual({
      kind: "applied",
      pet: { id: 7, name: "Rex", categoryId: 2 },
      changes: [{ field: "status", from: "available", to: null }],
    });
    expect(applyPetPatch(rex, patch([{ op: "remove", path: "/status" }]), write)).toMatchObject({
      kind: "applied",
      pet: { id: 7, name: "Rex", categoryId: 2 },
    });
    expect(applyPetPatch(none, patch([{ op: "remove", path: "/status" }]), write)).toEqual({
      kind: "applied",
      pet: none,
      changes: [],
    });
  });

  it("a patch that changes nothing applies with no changes (no write, no event)", () => {
    expect(
      applyPetPatch(
        rex,
        patch([
          { op: "test", path: "/name", value: " Rex " },
          { op: "replace", path: "/status", value: "available" },
        ]),
        write,
      ),
    ).toEqual({ kind: "applied", pet: rex, changes: [] });
  });

  it("a result that is not a valid pet is refused, naming the operation that set each field", () => {
    expect(
      applyPetPatch(
        rex,
        patch([
          { op: "replace", path: "/name", value: "  " },
          { op: "replace", path: "/categoryId", value: 0 },
          { op: "replace", path: "/status", value: "lost" },
        ]),
        admin,
      ),
    ).toEqual({
      kind: "invalid",
      issues: [
        { field: "body[0].value", message: "name must not be empty" },
        { field: "body[1].value", message: "categoryId must be at least 1" },
        { field: "body[2].value", message: "status must be one of available, pending, sold, or null for no status" },
      ],
    });
    expect(
      applyPetPatch(
        rex,
        patch([
          { op: "replace", path: "/name", value: 5 },
          { op: "replace", path: "/categoryId", value: 2.5 },
        ]),
        admin,
      ),
    ).toMatchObject({
      kind: "invalid",
      issues: [
        { field: "body[0].value", message: "name must be a string" },
        { field: "body[1].value", message: "categoryId must be an integer" },
      ],
    });
    // A value with bidirectional formatting or control characters is refused by the patch's own schema, before it applies.
    expect(PetPatch.safeParse([{ op: "replace", path: "/name", value: "Rex\u202Eexe" }]).success).toBe(false);
  });

  it("a sold pet comes back only with scope admin; selling needs no more than write", () => {
    expect(applyPetPatch(rex, patch([{ op: "replace", path: "/status", value: "sold" }]), write)).toMatchObject({
      kind: "applied",
      pet: { status: "sold" },
    });
    const sold = { ...rex, status: "sold" as const };
    for (const back of ["available", "pending", null]) {
      expect(applyPetPatch(sold, patch([{ op: "replace", path: "/status", value: back }]), write)).toEqual({
        kind: "forbidden",
        message: RETURN_FROM_SOLD_MESSAGE,
      });
      expect(applyPetPatch(sold, patch([{ op: "replace", path: "/status", value: back }]), admin)).toMatchObject({
        kind: "applied",
      });
    }
    // A sold pet's name may still be corrected by write.
    expect(applyPetPatch(sold, patch([{ op: "replace", path: "/name", value: "Rexy" }]), write)).toMatchObject({
      kind: "applied",
      pet: { name: "Rexy", status: "sold" },
    });
  });

  it("the schema refuses what is not a patch of a pet, naming the operation", () => {
    const issues = (body: unknown) => {
      const parsed = PetPatch.safeParse(body);
      return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    };
    expect(issues([])).toEqual([": a patch has at least one operation"]);
    expect(issues(Array(11).fill({ op: "test", path: "/name", value: "Rex" }))).toEqual([
      ": a patch has at most 10 operations",
    ]);
    expect(issues([{ op: "move", from: "/name", path: "/status" }])).toEqual([
      "0.op: op must be test, replace, add or remove",
    ]);
    expect(
      issues([
        { op: "test", path: "/name", value: "Rex" },
        { op: "replace", path: "/id", value: 9 },
      ]),
    ).toEqual(["1.path: path must be one of /name, /categoryId, /status"]);
    expect(issues([{ op: "remove", path: "/name" }])).toEqual(["0.path: remove applies to /status only"]);
    expect(issues([{ op: "replace", path: "/name", value: { first: "Rex" } }])).toEqual([
      "0.value: value must be a string, a number or null",
    ]);
    expect(issues([{ op: "replace", path: "/name", value: "Rex", extra: 1 }])[0]).toMatch(/^0: Unrecognized key/);
    expect(issues({ op: "replace" })).toEqual([": Expected array, received object"]);
  });
});
