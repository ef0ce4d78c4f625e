import { describe, expect, it } from "vitest";
import {
  CreatePetHeaders,
  ERROR_CODES,
  ErrorBody,
  GetPetParams,
  ListPetsQuery,
  MAX_ID,
  NAME_CHARACTERS_MESSAGE,
  NAME_PATTERN,
  NewPet,
  Pet,
  PetName,
  PetStatus,
  Pets,
} from "./schemas.js";

const issuePath = (result: { success: boolean; error?: { issues: Array<{ path: Array<string | number> }> } }) =>
  result.error?.issues[0]?.path.join(".");

describe("PetStatus", () => {
  it("allows exactly available, pending and sold", () => {
    expect(PetStatus.options).toEqual(["available", "pending", "sold"]);
    for (const bad of ["AVAILABLE", "Available", "", "adopted", " sold", null, 1]) {
      expect(PetStatus.safeParse(bad).success, String(bad)).toBe(false);
    }
  });
});

describe("NewPet", () => {
  it("accepts the minimal body and an optional status", () => {
    expect(NewPet.parse({ name: "Rex", categoryId: 1 })).toEqual({ name: "Rex", categoryId: 1 });
    expect(NewPet.parse({ name: "Rex", categoryId: 1, status: "sold" })).toEqual({
      name: "Rex",
      categoryId: 1,
      status: "sold",
    });
  });

  it("requires name and categoryId, naming the missing field", () => {
    const noName = NewPet.safeParse({ categoryId: 1 });
    expect(noName.success).toBe(false);
    expect(issuePath(noName)).toBe("name");
    expect(noName.error?.issues[0]?.message).toBe("name is required");
    const noCategory = NewPet.safeParse({ name: "Rex" });
    expect(issuePath(noCategory)).toBe("categoryId");
    expect(noCategory.error?.issues[0]?.message).toBe("categoryId is required");
  });

  it("trims name and bounds it to 1..100 characters after trimming", () => {
    expect(NewPet.parse({ name: "  Rex  ", categoryId: 1 }).name).toBe("Rex");
    expect(NewPet.safeParse({ name: "", categoryId: 1 }).success).toBe(false);
    expect(NewPet.safeParse({ name: "   ", categoryId: 1 }).success).toBe(false);
    expect(NewPet.safeParse({ name: "a", categoryId: 1 }).success).toBe(true);
    expect(NewPet.safeParse({ name: "a".repeat(100), categoryId: 1 }).success).toBe(true);
    expect(NewPet.safeParse({ name: ` ${"a".repeat(100)} `, categoryId: 1 }).success).toBe(true);
    expect(NewPet.safeParse({ name: "a".repeat(101), categoryId: 1 }).success).toBe(false);
    expect(NewPet.safeParse({ name: 5, categoryId: 1 }).success).toBe(false);
    expect(NewPet.safeParse({ name: null, categoryId: 1 }).success).toBe(false);
  });

  it("refuses control characters (U+0000-U+001F, U+007F-U+009F) inside a name", () => {
    for (const bad of ["a\u0000b", "Rex\u0007", "a\tb", "a\nb", "a\rb", "\u001fx", "x\u007f", "x\u0080y", "x\u009f"]) {
      const result = NewPet.safeParse({ name: bad, categoryId: 1 });
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(issuePath(result)).toBe("name");
      expect(result.error?.issues[0]?.message).toBe(NAME_CHARACTERS_MESSAGE);
    }
    // Whitespace at either end is trimmed first; the characters just outside the ranges are fine.
    expect(NewPet.parse({ name: "\tRex\n", categoryId: 1 }).name).toBe("Rex");
    for (const good of ["a b", "x\u00a0y", "~", "Émile", "🐕 Rex"]) {
      expect(NewPet.safeParse({ name: good, categoryId: 1 }).success, JSON.stringify(good)).toBe(true);
    }
  });

  it("takes categoryId as a positive safe integer only", () => {
    for (const ok of [1, 2, MAX_ID])
      expect(NewPet.safeParse({ name: "x", categoryId: ok }).success, String(ok)).toBe(true);
    for (const bad of [0, -1, 1.5, MAX_ID + 1, "1", null, Number.NaN, Number.POSITIVE_INFINITY, true]) {
      const result = NewPet.safeParse({ name: "x", categoryId: bad });
      expect(result.success, String(bad)).toBe(false);
      expect(issuePath(result)).toBe("categoryId");
    }
  });

  it("rejects an unknown status and a null status", () => {
    expect(issuePath(NewPet.safeParse({ name: "x", categoryId: 1, status: "adopted" }))).toBe("status");
    expect(NewPet.safeParse({ name: "x", categoryId: 1, status: null }).success).toBe(false);
  });

  it("strips unknown fields, including a client-chosen id", () => {
    expect(NewPet.parse({ name: "x", categoryId: 1, id: 99, owner: "me" })).toEqual({ name: "x", categoryId: 1 });
  });

  it("rejects bodies that are not objects", () => {
    for (const bad of [null, [], "x", 1, undefined]) expect(NewPet.safeParse(bad).success).toBe(false);
  });
});

/**
 * The name rule, written out a second way as the oracle: well-formed UTF-16 (every
 * surrogate in a pair, high then low), and none of the control or bidirectional
 * formatting characters, once trimmed.
 */
const BIDI_FORMATTING = [
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
];
function nameCharactersAllowed(name: string): boolean {
  const trimmed = name.trim();
  for (let i = 0; i < trimmed.length; i++) {
    const unit = trimmed.charCodeAt(i);
    if (unit <= 0x1f || (unit >= 0x7f && unit <= 0x9f) || BIDI_FORMATTING.includes(unit)) return false;
    if (unit >= 0xdc00 && unit <= 0xdfff) return false; // a low surrogate not after a high one
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = trimmed.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    }
  }
  return true;
}
const characterIssue = (value: unknown) =>
  PetName.safeParse(value).error?.issues.some((issue) => issue.message === NAME_CHARACTERS_MESSAGE) ?? false;

describe("the name rule: well-formed, no control and no bidirectional formatting characters", () => {
  it("refuses an unpaired surrogate anywhere in a name, naming name", () => {
    for (const bad of [
      "\ud800",
      "Rex\ud800",
      "\udbffRex",
      "\udc00",
      "Re\udfffx",
      "a\udc36\ud83db",
      "\ud83d\ud83d\udc36",
    ]) {
      const result = NewPet.safeParse({ name: bad, categoryId: 1 });
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
        ["name", NAME_CHARACTERS_MESSAGE],
      ]);
    }
  });

  it("refuses each bidirectional formatting character (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), naming name", () => {
    for (const code of BIDI_FORMATTING) {
      for (const bad of [
        String.fromCharCode(code),
        `Rex${String.fromCharCode(code)}gnp.exe`,
        `${String.fromCharCode(code)}Rex`,
      ]) {
        const result = NewPet.safeParse({ name: bad, categoryId: 1 });
        expect(result.success, bad).toBe(false);
        expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
          ["name", NAME_CHARACTERS_MESSAGE],
        ]);
      }
    }
  });

  it("keeps well-formed names from every plane, right-to-left letters, and the characters beside the refused ones", () => {
    for (const good of [
      "🐕 Rex",
      "𝔘𝔫𝔦",
      "👩‍👩‍👧",
      "שלום",
      "مرحبا",
      "Rex\u061b",
      "\u061dx",
      "a\u200db",
      "a\u2029b",
      "x\u202fy",
      "x\u2065y",
      "x\u206ay",
      "\ufeffRex",
      "\uffff",
    ]) {
      expect(NewPet.safeParse({ name: good, categoryId: 1 }).success, JSON.stringify(good)).toBe(true);
    }
  });

  it("agrees with the rule written out, for every UTF-16 code unit and every pairing of surrogates", () => {
    const samples: string[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) {
      const c = String.fromCharCode(unit);
      samples.push(`a${c}b`, `${c}b`, `a${c}`);
    }
    for (const high of [0xd800, 0xd83d, 0xdbff]) {
      for (const low of [0xdc00, 0xdc36, 0xdfff]) {
        const pair = String.fromCharCode(high, low);
        samples.push(
          pair,
          `a${pair}`,
          `${pair}b`,
          String.fromCharCode(low, high),
          `${pair}${String.fromCharCode(high)}`,
        );
      }
    }
    const disagreements = samples.filter((sample) => characterIssue(sample) === nameCharactersAllowed(sample));
    expect(disagreements.map((sample) => JSON.stringify(sample))).toEqual([]);
  });

  it("is one regex, with no effect: the same verdict with or without the u flag, on names and on untrimmed wire values", () => {
    expect(
      PetName._def.checks
        .filter((check) => check.kind === "regex")
        .map((check) => check.kind === "regex" && check.regex),
    ).toEqual([NAME_PATTERN]);
    expect(PetName._def.typeName).toBe("ZodString"); // no ZodEffects: no transform, no refine
    const unicode = new RegExp(NAME_PATTERN.source, "u");
    const wire = [
      "\tRex\n",
      " \u00a0Rex\u3000",
      "\ufeffRex\u2028",
      "Rex\t",
      "\u0085Rex",
      "a\tb",
      " \u202eRex ",
      "\ud800 ",
      " 🐕 ",
      "Ré x",
      "",
    ];
    for (let unit = 0; unit <= 0xffff; unit += 1)
      wire.push(` ${String.fromCharCode(unit)}x `, `\t${String.fromCharCode(unit)}\n`);
    // The pattern holds for the value as sent exactly when its characters, once trimmed, are allowed.
    const disagreements = wire.filter(
      (value) =>
        NAME_PATTERN.test(value) !== nameCharactersAllowed(value) ||
        unicode.test(value) !== nameCharactersAllowed(value),
    );
    expect(disagreements.map((value) => JSON.stringify(value))).toEqual([]);
  });
});

describe("the name rule on a body-sized value (16 KiB): no backtracking storm", () => {
  // The regex runs even when max(100) has failed. `^\s*(?:char)*\s*$`, the obvious way to allow the padding,
  // backtracks quadratically here (about 250 ms for each of these); NAME_PATTERN stays well under a millisecond.
  it.each([
    ["spaces, then a control character", `a${" ".repeat(16_000)}\u0007`],
    ["no-break spaces, then an unpaired surrogate", `a${"\u00a0".repeat(16_000)}\ud800`],
    ["emoji, then a right-to-left override", `${"🐕".repeat(8_000)}\u202e`],
  ])("%s: refused in under 50 ms", (_case, value) => {
    const started = performance.now();
    expect(PetName.safeParse(value).success).toBe(false);
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe("Pet and Pets", () => {
  it("require id, name and categoryId; status optional", () => {
    expect(Pet.safeParse({ id: 1, name: "x", categoryId: 2 }).success).toBe(true);
    expect(Pet.safeParse({ id: 1, name: "x", categoryId: 2, status: "pending" }).success).toBe(true);
    expect(Pet.safeParse({ name: "x", categoryId: 2 }).success).toBe(false);
    expect(Pet.safeParse({ id: 0, name: "x", categoryId: 2 }).success).toBe(false);
    expect(Pets.safeParse([{ id: 1, name: "x", categoryId: 2 }]).success).toBe(true);
    expect(Pets.safeParse({}).success).toBe(false);
  });
});

describe("ListPetsQuery", () => {
  it("defaults limit to 20 and has no status filter by default", () => {
    expect(ListPetsQuery.parse({})).toEqual({ limit: 20 });
  });

  it("accepts limit 1..100 as decimal digits", () => {
    expect(ListPetsQuery.parse({ limit: "1" }).limit).toBe(1);
    expect(ListPetsQuery.parse({ limit: "100" }).limit).toBe(100);
    expect(ListPetsQuery.parse({ limit: "050" }).limit).toBe(50);
    expect(ListPetsQuery.parse({ limit: 7 }).limit).toBe(7);
  });

  it("rejects limit outside 1..100 or not a plain integer, never clamping", () => {
    for (const bad of [
      "0",
      "101",
      "-1",
      "1.5",
      "7.0",
      "1e1",
      "0x10",
      " 5",
      "",
      "abc",
      ["1", "2"],
      "1000000000000000000000",
    ]) {
      const result = ListPetsQuery.safeParse({ limit: bad });
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(issuePath(result)).toBe("limit");
    }
  });

  it("filters by a known status only", () => {
    expect(ListPetsQuery.parse({ status: "sold" })).toEqual({ limit: 20, status: "sold" });
    expect(ListPetsQuery.safeParse({ status: "SOLD" }).success).toBe(false);
    expect(ListPetsQuery.safeParse({ status: "" }).success).toBe(false);
  });

  it("takes an optional after id", () => {
    expect(ListPetsQuery.parse({ after: "10" })).toEqual({ limit: 20, after: 10 });
    expect(ListPetsQuery.safeParse({ after: "-1" }).success).toBe(false);
    expect(ListPetsQuery.safeParse({ after: String(MAX_ID + 1) }).success).toBe(false);
  });
});

describe("ListPetsQuery name", () => {
  it("is optional: without it the query is exactly as before", () => {
    expect(ListPetsQuery.parse({ limit: "5", status: "sold" })).toEqual({ limit: 5, status: "sold" });
  });

  it("takes 1..100 characters after trimming", () => {
    expect(ListPetsQuery.parse({ name: "  emi " })).toEqual({ limit: 20, name: "emi" });
    expect(ListPetsQuery.parse({ name: "a".repeat(100) }).name).toHaveLength(100);
  });

  it("refuses an empty, blank, over-long, repeated or control-character name, naming name", () => {
    for (const bad of ["", "   ", "a".repeat(101), ["a", "b"], "a\u0000", "x\u0085", "\ud800", "x\u202ey"]) {
      const result = ListPetsQuery.safeParse({ name: bad });
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(issuePath(result)).toBe("name");
      expect(result.error?.issues[0]?.message).toMatch(/^name /);
    }
  });
});

describe("GetPetParams", () => {
  it("names a pet only with decimal digits 1..2^53-1", () => {
    expect(GetPetParams.parse({ petId: "7" })).toEqual({ petId: 7 });
    expect(GetPetParams.parse({ petId: String(MAX_ID) })).toEqual({ petId: MAX_ID });
    for (const bad of ["0", "7.0", "7e0", "0x7", " 7", "-1", "", "abc", String(MAX_ID + 1), "99999999999999999999"]) {
      const result = GetPetParams.safeParse({ petId: bad });
      expect(result.success, bad).toBe(false);
      expect(issuePath(result)).toBe("petId");
    }
  });
});

describe("ErrorBody", () => {
  it("has a closed set of codes and carries the HTTP status", () => {
    expect(ERROR_CODES).toContain("VALIDATION_ERROR");
    expect(ErrorBody.safeParse({ code: "UNAUTHORIZED", message: "m", status: 401 }).success).toBe(true);
    expect(ErrorBody.safeParse({ code: "TEAPOT", message: "m", status: 418 }).success).toBe(false);
    expect(ErrorBody.safeParse({ code: "UNAUTHORIZED", message: "m" }).success).toBe(false);
  });
});

describe("CreatePetHeaders", () => {
  const key = (value: unknown) => CreatePetHeaders.safeParse({ "idempotency-key": value }).success;

  it("takes an optional Idempotency-Key of 1..255 printable ASCII characters", () => {
    expect(CreatePetHeaders.safeParse({}).success).toBe(true);
    for (const good of ["a", "8e0f1c2a-6f0e-4c8e-9d3b-1b2c3d4e5f60", "a b", "~".repeat(255), "!#$%&'*+-.^_`|~"]) {
      expect(key(good), good).toBe(true);
    }
  });

  it("refuses an empty, over-long, non-ASCII or space-padded key", () => {
    for (const bad of ["", "x".repeat(256), "clé", "tab\there", " lead", "trail ", "new\nline"]) {
      expect(key(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
