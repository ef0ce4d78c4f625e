import type { Pet, PetStatus } from "@petstore/contract";
import { firstRow, provider, raw, rows, sql, toNumber, type SqlStatement, type SqlWork } from "../data/sql-work.js";
import type { DatabaseProvider } from "../base/database-url.js";
import { nameSearchKeys, type NameSearchKeys } from "./name-key.js";
import { toPet, type PetRow } from "./pet-row.js";

/**
 * The name search, written once for both providers (docs/decisions/047-word-search.md): pets with
 * consecutive words of the name starting with the search's words. A name's first word is found in the
 * (nameKey, id) index of "Pet", every later word in "PetWord" (its key: the name's key from that word
 * on), which triggers on "Pet" keep in the transaction of every write, whatever the path.
 */

/** The least number of matches that makes walking the id order cheaper than sorting the matches (below). */
export const MIN_WALK_MATCHES = 200;

/** How a name search reads the pets, and the condition on "Pet" that says so. */
export interface NameSearchPlan {
  /**
   * `range`: the matches' ids read from the two key ranges (covering indexes), then their pets in id
   * order: few matches. `walk`: pets in id order (the primary key, or the index of another filter),
   * each checked against the search, stopping at the page's end: many matches, so a page is found long
   * before the ranges would be read.
   */
  kind: "range" | "walk";
  /** The condition on a row of "Pet": it is a match. */
  condition: SqlStatement;
  /** The count of matches, at most `cap`, that chose `kind`. */
  count: SqlStatement;
  cap: number;
  provider: DatabaseProvider;
}

const keyRange = (column: string, { from, to }: NameSearchKeys): SqlStatement =>
  to === null ? sql`${raw(column)} >= ${from}` : sql`${raw(column)} >= ${from} AND ${raw(column)} < ${to}`;

/** The ids of the pets matching `keys` above `after`: first words from "Pet", later words from "PetWord". */
function matchingIds(keys: NameSearchKeys, after: number, sqlite: boolean): { byName: SqlStatement; byWord: SqlStatement } {
  // INDEXED BY: SQLite's planner has no statistics on key ranges (no STAT4) and could walk the ids instead.
  const nameIndex = raw(sqlite ? ` INDEXED BY "Pet_nameKey_id_idx"` : "");
  return {
    byName: sql`SELECT "id" FROM "Pet"${nameIndex} WHERE ${keyRange('"nameKey"', keys)} AND "id" > ${after}`,
    byWord: sql`SELECT "petId" FROM "PetWord" WHERE ${keyRange('"key"', keys)} AND "petId" > ${after}`,
  };
}

/**
 * Chooses how to read a name search for a page of `take` rows above `after`; null when the search has
 * no word (it matches no pet). Neither planner knows how many keys a range holds here (SQLite has no
 * STAT4; PostgreSQL cannot see through the union of two ranges), so the API counts the matches above
 * `after`, reading at most `cap` entries of each range (covering indexes: no table rows), with `cap` =
 * sqrt(take x the span of ids left): fewer matches than `cap`, and sorting them costs under `cap`; as
 * many, and a walk in id order meets a page after about take x span / matches <= `cap` rows, if the
 * matches are spread over the ids. Either way a page costs O(sqrt(take x pets)), never a whole range.
 */
export function* planNameSearch(search: string, { take, after = 0 }: { take: number; after?: number | undefined }): SqlWork<NameSearchPlan | null> {
  const keys = nameSearchKeys(search);
  if (keys === null) return null;
  const on = yield* provider();
  const sqlite = on === "sqlite";
  const { byName, byWord } = matchingIds(keys, after, sqlite);
  const countUpTo = (cap: SqlStatement) => sql`(SELECT count(*) FROM (${byName} LIMIT ${cap}) AS "names")
    + (SELECT count(*) FROM (${byWord} LIMIT ${cap}) AS "words")`;
  let cap: number;
  let count: SqlStatement;
  let matches: number;
  if (sqlite) {
    const top = yield* firstRow<{ maxId: unknown }>(sql`SELECT max("id") AS "maxId" FROM "Pet"`);
    cap = Math.max(MIN_WALK_MATCHES, Math.ceil(Math.sqrt(take * Math.max(0, toNumber(top?.maxId ?? 0) - after))));
    count = sql`SELECT ${countUpTo(sql`${cap}`)} AS "n"`;
    matches = toNumber((yield* firstRow<{ n: unknown }>(count))?.n ?? 0);
  } else {
    // On PostgreSQL each statement is a round trip: the cap is computed in the statement that counts.
    count = sql`WITH "top" AS (
        SELECT CAST(greatest(${MIN_WALK_MATCHES}, ceil(sqrt(CAST(${take} AS float8) * greatest(0, coalesce(max("id"), 0) - CAST(${after} AS bigint))))) AS bigint) AS "cap"
        FROM "Pet")
      SELECT "cap", ${countUpTo(sql`(SELECT "cap" FROM "top")`)} AS "n" FROM "top"`;
    const counted = yield* firstRow<{ cap: unknown; n: unknown }>(count);
    cap = toNumber(counted?.cap ?? MIN_WALK_MATCHES);
    matches = toNumber(counted?.n ?? 0);
  }
  if (matches < cap) return { kind: "range", condition: sql`"id" IN (${byName} UNION ${byWord})`, count, cap, provider: on };
  // A match as a substring: " " + the name's key holds " " + the search's key exactly when consecutive
  // words of the name start with the search's words. Opaque to both planners: they walk the id order.
  const position = raw(sqlite ? "instr" : "strpos");
  return { kind: "walk", condition: sql`${position}(' ' || "nameKey", ${keys.needle}) > 0`, count, cap, provider: on };
}

export interface NameSearchPageQuery {
  name: string;
  /** Rows to read. */
  take: number;
  status?: PetStatus | undefined;
  after?: number | undefined;
}

/** The statement of a page of a name search under `plan`. */
export function nameSearchPageStatement(plan: NameSearchPlan, { take, status, after = 0 }: Omit<NameSearchPageQuery, "name">): SqlStatement {
  const byStatus = status === undefined ? sql`` : sql` AND "status" = ${status}`;
  // A walk with a status walks that status's pets: SQLite's planner, blind to how common a status is,
  // could walk every pet instead (PostgreSQL's statistics choose well).
  const statusIndex = raw(plan.kind === "walk" && status !== undefined && plan.provider === "sqlite" ? ` INDEXED BY "Pet_status_id_idx"` : "");
  return sql`SELECT "id", "name", "categoryId", "status" FROM "Pet"${statusIndex}
    WHERE ${plan.condition}${byStatus} AND "id" > ${after} ORDER BY "id" ASC LIMIT ${take}`;
}

/** Up to `take` pets matching a name search (and `status`) above `after`, in ascending id order. */
export function* nameSearchPage(query: NameSearchPageQuery): SqlWork<Pet[]> {
  const plan = yield* planNameSearch(query.name, query);
  if (plan === null) return [];
  return (yield* rows<PetRow>(nameSearchPageStatement(plan, query))).map(toPet);
}
