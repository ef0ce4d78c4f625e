import type { Pet, PetStatus } from "@petstore/contract";
import {
  firstRow,
  provider,
  raw,
  rows,
  sql,
  toNumber,
  type SqlStatement,
  type SqlText,
  type SqlWork,
} from "../data/sql-work.js";
import type { DatabaseProvider } from "../base/database-url.js";
import { nameSearchKeys, type NameSearchKeys } from "./name-key.js";
import { toPet, type PetRow } from "./pet-row.js";

/**
 * The name search, written once for both providers (docs/decisions/047-word-search.md): pets with
 * consecutive words of the name starting with the search's words. A name's first word is found in the
 * (nameKey, id) index of "Pet", every later word in "PetWord" (its key: the name's key from that word
 * on), which triggers on "Pet" keep in the transaction of every write, whatever the path.
 */

/** Fewer matches than this are read from the key ranges and sorted; as many, and a walk is tried first. */
export const MIN_WALK_MATCHES = 200;

/** How a name search reads the pets (docs/decisions/049-name-search-walks-first.md). */
export interface NameSearchPlan {
  /**
   * `range`: fewer than MIN_WALK_MATCHES matches: their ids read from the two key ranges (covering
   * indexes), then their pets in id order. `walk`: at least as many: the first `cap` pets in id order (the
   * primary key, or the index of another filter), each checked against the search, stopping at the
   * page's end; a walk that does not fill its page is read again from the ranges (readNameSearch).
   */
  kind: "range" | "walk";
  /** The condition on a row of "Pet" that reads the key ranges: it is a match. */
  range: SqlStatement;
  /** The condition on a row of "Pet" that checks its key: it is a match (opaque to both planners). */
  needle: SqlStatement;
  /** The statement that counted the matches (up to MIN_WALK_MATCHES of each range) and chose `kind`. */
  count: SqlStatement;
  /** The most rows a walk reads: sqrt(take x the span of ids left), at least MIN_WALK_MATCHES. */
  cap: number;
  provider: DatabaseProvider;
}

const keyRange = (column: string, { from, to }: NameSearchKeys): SqlStatement =>
  to === null ? sql`${raw(column)} >= ${from}` : sql`${raw(column)} >= ${from} AND ${raw(column)} < ${to}`;

/** The ids of the pets matching `keys` above `after`: first words from "Pet", later words from "PetWord". */
function matchingIds(
  keys: NameSearchKeys,
  after: number,
  sqlite: boolean,
): { byName: SqlStatement; byWord: SqlStatement } {
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
 * `after`, reading at most MIN_WALK_MATCHES entries of each range (covering indexes: no table rows).
 * Fewer: sorting them is cheap. As many: a walk in id order is tried, reading at most `cap` =
 * sqrt(take x the span of ids left) rows; with M matches spread over the ids it meets a page after about
 * take x span / M rows, so it fills its page whenever M >= cap, and otherwise the ranges hold fewer than
 * about `cap` matches. Either way a page costs O(sqrt(take x pets)), never a whole range, and a common
 * word's first page reads about take x span / M rows, as a whole-name prefix's did.
 */
export function* planNameSearch(
  search: string,
  { take, after = 0 }: { take: number; after?: number | undefined },
): SqlWork<NameSearchPlan | null> {
  const keys = nameSearchKeys(search);
  if (keys === null) return null;
  const on = yield* provider();
  const sqlite = on === "sqlite";
  const { byName, byWord } = matchingIds(keys, after, sqlite);
  const counted = sql`(SELECT count(*) FROM (${byName} LIMIT ${MIN_WALK_MATCHES}) AS "names")
    + (SELECT count(*) FROM (${byWord} LIMIT ${MIN_WALK_MATCHES}) AS "words")`;
  const capOf = (maxId: unknown) =>
    Math.max(MIN_WALK_MATCHES, Math.ceil(Math.sqrt(take * Math.max(0, toNumber(maxId ?? 0) - after))));
  let count: SqlStatement;
  let matches: number;
  let cap = MIN_WALK_MATCHES;
  if (sqlite) {
    count = sql`SELECT ${counted} AS "n"`;
    matches = toNumber((yield* firstRow<{ n: unknown }>(count))?.n ?? 0);
    if (matches >= MIN_WALK_MATCHES)
      cap = capOf((yield* firstRow<{ maxId: unknown }>(sql`SELECT max("id") AS "maxId" FROM "Pet"`))?.maxId);
  } else {
    // On PostgreSQL each statement is a round trip: the highest id is read in the statement that counts.
    count = sql`SELECT ${counted} AS "n", (SELECT max("id") FROM "Pet") AS "maxId"`;
    const row = yield* firstRow<{ n: unknown; maxId: unknown }>(count);
    matches = toNumber(row?.n ?? 0);
    cap = capOf(row?.maxId);
  }
  // A match as a substring: " " + the name's key holds " " + the search's key exactly when consecutive
  // words of the name start with the search's words.
  const position = raw(sqlite ? "instr" : "strpos");
  return {
    kind: matches < MIN_WALK_MATCHES ? "range" : "walk",
    range: sql`"id" IN (${byName} UNION ${byWord})`,
    needle: sql`${position}(' ' || "nameKey", ${keys.needle}) > 0`,
    count,
    cap,
    provider: on,
  };
}

/**
 * Reads up to `take` rows of a name search under `plan`. `read` reads the rows of "Pet" that satisfy a
 * name condition (and its other filters), in its order, up to `take`; given `walkRows`, only among the
 * first `walkRows` rows of that order that pass the other filters. A walk that fills its page is the
 * answer; one that does not is read again from the key ranges, which hold the whole answer.
 */
export function* readNameSearch<T>(
  plan: NameSearchPlan,
  take: number,
  read: (name: SqlStatement, walkRows?: number) => SqlWork<T[]>,
): SqlWork<T[]> {
  if (plan.kind === "walk") {
    const walked = yield* read(plan.needle, plan.cap);
    if (walked.length >= take) return walked;
  }
  return yield* read(plan.range);
}

/**
 * Rows of "Pet" with `columns`, matching `where` and a name condition, ordered by id (`order`), up to
 * `take`: with `walkRows`, the name condition checked among the first `walkRows` rows matching `where`
 * only (a subquery in id order, which both planners read lazily, stopping at the page's end).
 */
export function nameConditionStatement(
  {
    columns,
    from,
    where,
    order,
    orderBy,
    take,
  }: { columns: SqlText; from: SqlText; where: SqlStatement; order: "ASC" | "DESC"; orderBy?: SqlText; take: number },
  name: SqlStatement,
  walkRows?: number,
): SqlStatement {
  const direction = raw(order);
  if (walkRows === undefined)
    return sql`SELECT ${columns} FROM ${from} WHERE ${where} AND ${name} ORDER BY "id" ${direction} LIMIT ${take}`;
  // `orderBy`: the walk's order when `from` is more than "Pet" (a category's blocks: pet-listing.ts), id order still.
  return sql`SELECT ${columns} FROM (SELECT ${columns}, "nameKey" FROM ${from} WHERE ${where} ORDER BY ${orderBy ?? sql`"id" ${direction}`} LIMIT ${walkRows}) AS "Pet"
    WHERE ${name} ORDER BY "id" ${direction} LIMIT ${take}`;
}

export interface NameSearchPageQuery {
  name: string;
  /** Rows to read. */
  take: number;
  status?: PetStatus | undefined;
  after?: number | undefined;
}

const PAGE_COLUMNS = raw(`"id", "name", "categoryId", "status"`);

/** The statement of a page of a name search: with `walkRows`, a walk (see nameConditionStatement). */
export function nameSearchPageStatement(
  plan: NameSearchPlan,
  { take, status, after = 0 }: Omit<NameSearchPageQuery, "name">,
  name: SqlStatement,
  walkRows?: number,
): SqlStatement {
  const byStatus = status === undefined ? sql`` : sql`"status" = ${status} AND `;
  // A walk with a status walks that status's pets: SQLite's planner, blind to how common a status is,
  // could walk every pet instead (PostgreSQL's statistics choose well).
  const statusIndex =
    walkRows !== undefined && status !== undefined && plan.provider === "sqlite"
      ? ` INDEXED BY "Pet_status_id_idx"`
      : "";
  return nameConditionStatement(
    {
      columns: PAGE_COLUMNS,
      from: raw(`"Pet"${statusIndex}`),
      where: sql`${byStatus}"id" > ${after}`,
      order: "ASC",
      take,
    },
    name,
    walkRows,
  );
}

/** Up to `take` pets matching a name search (and `status`) above `after`, in ascending id order. */
export function* nameSearchPage(query: NameSearchPageQuery): SqlWork<Pet[]> {
  const plan = yield* planNameSearch(query.name, query);
  if (plan === null) return [];
  const found = yield* readNameSearch(plan, query.take, (name, walkRows) =>
    rows<PetRow>(nameSearchPageStatement(plan, query, name, walkRows)),
  );
  return found.map(toPet);
}
