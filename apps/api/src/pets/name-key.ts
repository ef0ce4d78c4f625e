/**
 * A name folded for comparison: Unicode NFKD (so `Ｒｅｘ` is `Rex` and `É` is
 * `E` plus a mark), every mark (`\p{M}`) removed, then lower case without a
 * locale (the same in every process, whatever its locale). Category names are
 * unique under it (store/categories.ts).
 */
export function foldName(name: string): string {
  return name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/** A run of characters that are neither letters nor digits: what separates a name's words. */
const WORD_SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * The search key of a name: its words (foldName's result split at every run of
 * characters that are neither `\p{L}` nor `\p{N}`), joined by one space. So
 * `Sir Reginald Fluffington` is `sir reginald fluffington`, `🐕 Rex!` is `rex`,
 * and a name with no letter or digit has the empty key. Stored beside each
 * name (`Pet.nameKey`, whose triggers index every word's start in `PetWord`)
 * and applied to the query: one function for both, so a search finds exactly
 * what was stored. docs/decisions/047-word-search.md.
 */
export function nameKey(name: string): string {
  return foldName(name)
    .split(WORD_SEPARATORS)
    .filter((word) => word !== "")
    .join(" ");
}

/**
 * The least string greater than every string that starts with `prefix`, in
 * code point order (the order of SQLite's BINARY collation and of PostgreSQL's
 * "C" collation, both comparing UTF-8 bytes): the prefix with its last code
 * point incremented. Null when there is none (the prefix is all U+10FFFF),
 * then the range has no upper end.
 */
export function prefixUpperBound(prefix: string): string | null {
  const codePoints = [...prefix];
  while (codePoints.length > 0) {
    const last = codePoints.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      // Surrogate code points are not characters: U+D7FF is followed by U+E000.
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return codePoints.join("") + String.fromCodePoint(next);
    }
  }
  return null;
}

/**
 * What a name search reads: the search keys from `from` (inclusive) up to `to` (exclusive; null: no upper
 * end), in `Pet.nameKey` (names whose first word starts the match) and in `PetWord.key` (the keys from a
 * later word on); and `needle`, the same match as a substring: a pet matches when `" " + nameKey`
 * contains it, which is how a search that walks the pets in id order checks each one.
 */
export interface NameSearchKeys {
  from: string;
  to: string | null;
  needle: string;
}

/**
 * The keys of a name search for `search`: its words, folded as names are, match consecutive words of a
 * name from a word's start (the last of them as a prefix). Null when `search` has no letter or digit: it
 * matches no word, so no pet.
 */
export function nameSearchKeys(search: string): NameSearchKeys | null {
  const from = nameKey(search);
  if (from === "") return null;
  return { from, to: prefixUpperBound(from), needle: ` ${from}` };
}
