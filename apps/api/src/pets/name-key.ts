/**
 * The search key of a name: what a name search compares. Unicode NFKD (so
 * `Ｒｅｘ` is `Rex` and `É` is `E` plus a mark), every mark (`\p{M}`) removed,
 * then lower case without a locale (the same in every process, whatever its
 * locale). Stored beside each name (`Pet.nameKey`) and applied to the query:
 * one function for both, so a search finds exactly what was stored.
 */
export function nameKey(name: string): string {
  return name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
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

/** The keys a name search reads: from `from` (inclusive) up to `to` (exclusive; null: no upper end). */
export interface NameKeyRange {
  from: string;
  to: string | null;
}

/** The range of search keys of the names that start with `search` (folded as names are). */
export function nameKeyRange(search: string): NameKeyRange {
  const from = nameKey(search);
  return { from, to: prefixUpperBound(from) };
}
