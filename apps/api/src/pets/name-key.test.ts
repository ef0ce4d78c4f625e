import { describe, expect, it } from "vitest";
import { nameKey, prefixUpperBound } from "./name-key.js";

describe("nameKey", () => {
  it("ignores case and accents, and folds compatibility forms", () => {
    expect(nameKey("Émile")).toBe("emile");
    expect(nameKey("ÉMILE")).toBe("emile");
    expect(nameKey("Zoë")).toBe("zoe");
    expect(nameKey("Ｒｅｘ")).toBe("rex");
    expect(nameKey("ﬁfi")).toBe("fifi");
    expect(nameKey("Ångström")).toBe("angstrom");
  });

  it("keeps what is not a letter with a mark as it is", () => {
    expect(nameKey("50% _off\\ 'x'")).toBe("50% _off\\ 'x'");
    expect(nameKey("🐕 Rex")).toBe("🐕 rex");
    expect(nameKey("ß")).toBe("ß");
  });

  it("is locale-free: a Turkish dotted capital I folds to i", () => {
    expect(nameKey("İzmir")).toBe("izmir");
  });

  it("makes a folded query a prefix of every folded name it should find", () => {
    for (const [query, name] of [["emi", "Émile"], ["EMI", "émile"], ["é", "Eve"], ["ｒ", "Rex"]] as const) {
      expect(nameKey(name).startsWith(nameKey(query)), `${query} ${name}`).toBe(true);
    }
  });
});

describe("prefixUpperBound", () => {
  it("is the prefix with its last code point incremented", () => {
    expect(prefixUpperBound("rex")).toBe("rey");
    expect(prefixUpperBound("a%")).toBe("a&");
    expect(prefixUpperBound("a\uffff")).toBe("a\u{10000}");
    expect(prefixUpperBound("a\u{1f415}")).toBe("a\u{1f416}");
    expect(prefixUpperBound("a\ud7ff")).toBe("a\ue000");
  });

  it("drops trailing U+10FFFF, and is null when nothing is left", () => {
    expect(prefixUpperBound("ab\u{10ffff}")).toBe("ac");
    expect(prefixUpperBound("\u{10ffff}")).toBeNull();
  });

  it("bounds every string with the prefix, in UTF-8 byte order", () => {
    const utf8 = (s: string) => Buffer.from(s, "utf8");
    for (const prefix of ["rex", "a\uffff", "é", "z\u{1f415}"]) {
      const upper = utf8(prefixUpperBound(prefix)!);
      for (const tail of ["", "\u{10ffff}", "\uffff", "zzz", "\u{1f415}"]) {
        expect(Buffer.compare(utf8(prefix + tail), upper), JSON.stringify(prefix + tail)).toBe(-1);
      }
    }
  });
});
