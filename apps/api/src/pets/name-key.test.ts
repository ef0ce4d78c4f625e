import { describe, expect, it } from "vitest";
import { foldName, nameKey, nameSearchKeys, prefixUpperBound } from "./name-key.js";

describe("foldName", () => {
  it("ignores case and accents, folds compatibility forms, and keeps everything else", () => {
    expect(foldName("Émile")).toBe("emile");
    expect(foldName("Ｒｅｘ")).toBe("rex");
    expect(foldName("50% _off\\ 'x'")).toBe("50% _off\\ 'x'");
    expect(foldName("🐕 Rex")).toBe("🐕 rex");
    expect(foldName("İzmir")).toBe("izmir");
  });
});

describe("nameKey", () => {
  it("ignores case and accents, and folds compatibility forms", () => {
    expect(nameKey("Émile")).toBe("emile");
    expect(nameKey("ÉMILE")).toBe("emile");
    expect(nameKey("Zoë")).toBe("zoe");
    expect(nameKey("Ｒｅｘ")).toBe("rex");
    expect(nameKey("ﬁfi")).toBe("fifi");
    expect(nameKey("Ångström")).toBe("angstrom");
    expect(nameKey("ß")).toBe("ß");
  });

  it("is the words (runs of letters and digits) joined by one space", () => {
    expect(nameKey("Sir Reginald Fluffington")).toBe("sir reginald fluffington");
    expect(nameKey("  Émile   Ñandú!  ")).toBe("emile nandu");
    expect(nameKey("50% _off\\ 'x'")).toBe("50 off x");
    expect(nameKey("🐕 Rex")).toBe("rex");
    expect(nameKey("O'Malley-Smith")).toBe("o malley smith");
    expect(nameKey("Nº 5, 東京タワー")).toBe("no 5 東京タワー");
    expect(nameKey("%_🐕")).toBe("");
  });

  it("is locale-free: a Turkish dotted capital I folds to i", () => {
    expect(nameKey("İzmir")).toBe("izmir");
  });
});

describe("nameSearchKeys", () => {
  it("finds, through the needle, exactly the names with consecutive words from a word's start", () => {
    const finds = (search: string, name: string) => ` ${nameKey(name)}`.includes(nameSearchKeys(search)!.needle);
    for (const [search, name] of [
      ["emi", "Émile"],
      ["EMI", "émile"],
      ["é", "Eve"],
      ["ｒ", "Rex"],
      ["fluff", "Sir Reginald Fluffington"],
      ["ñand", "Émile Ñandú"],
      ["sir-reg", "Sir Reginald"],
    ] as const) {
      expect(finds(search, name), `${search} ${name}`).toBe(true);
    }
    for (const [search, name] of [
      ["inal", "Sir Reginald"],
      ["sir fluff", "Sir Reginald Fluffington"],
      ["rex", "Trex"],
    ] as const) {
      expect(finds(search, name), `${search} ${name}`).toBe(false);
    }
  });

  it("is a key range that holds every key starting with the search's key", () => {
    expect(nameSearchKeys("Sir  Reg")).toEqual({ from: "sir reg", to: "sir reh", needle: " sir reg" });
  });

  it("is null for a search without a letter or digit: it matches no pet", () => {
    expect(nameSearchKeys("🐕")).toBeNull();
    expect(nameSearchKeys("%_")).toBeNull();
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
