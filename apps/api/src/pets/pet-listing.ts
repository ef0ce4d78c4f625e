import type { ListPetsQuery, Pet, PetStatus } from "@petstore/contract";
import type { Request, Response } from "express";
import { pageLink, rowsToRead } from "../base/next-page.js";
import type { DatabaseProvider } from "../base/database-url.js";
import {
  firstRow,
  joinSql,
  provider,
  raw,
  rows,
  sql,
  toNumber,
  type SqlRunner,
  type SqlStatement,
  type SqlText,
  type SqlWork,
} from "../data/sql-work.js";
import { countRows } from "./pet-counts.js";
import { nameConditionStatement, planNameSearch, readNameSearch, type NameSearchPlan } from "./name-search.js";
import { toPet, type PetRow } from "./pet-row.js";

/**
 * listPets' extensions from "The store at a glance" (docs/decisions/046-the-store-at-a-glance.md): the
 * category filter, the page below an id (`before`) and the total (`count=true`), written once for both
 * providers. The spec's own shapes (limit, status, after, a name search) keep their hand-tuned statements
 * (sqlite-pet-repository.ts, prisma-pet-repository.ts): this path runs only when one of these is asked.
 */

/** With a name search the total is counted up to this many, then answered as `10000+`. */
export const NAME_COUNT_CAP = 10_000;

export interface PetFilters {
  status?: PetStatus | undefined;
  categoryId?: number | undefined;
  /** A name search's condition, as planNameSearch chose it (name-search.ts). */
  name?: NameSearchPlan | undefined;
}

export interface FilteredPageQuery extends PetFilters {
  /** Rows to read: one more than the page, to know whether another page lies beyond. */
  take: number;
  after?: number | undefined;
  before?: number | undefined;
}

const COLUMNS = raw(`"id", "name", "categoryId", "status"`);

/** The filters but the name search's. */
function conditions({ status, categoryId }: PetFilters): SqlStatement[] {
  const where: SqlStatement[] = [];
  if (status !== undefined) where.push(sql`"status" = ${status}`);
  if (categoryId !== undefined) where.push(sql`"categoryId" = ${categoryId}`);
  return where;
}

const whereClause = (where: readonly SqlStatement[]): SqlStatement =>
  where.length === 0 ? sql`` : sql` WHERE ${allOf(where)}`;
const allOf = (where: readonly SqlStatement[]): SqlStatement =>
  where.length === 0 ? sql`1 = 1` : joinSql(where, " AND ");

/** Pet ids per block of SQLite's category zone map ("PetBlock", migration 0015_category_blocks): block = floor(id / 1,024). */
export const PET_BLOCK_SIZE = 1024;

/**
 * Where a listing reads its rows, in id order: "Pet" (by an index of the filters, or its ids). On SQLite, a
 * listing by category reads the category's blocks in "PetBlock", in order, and in each the block's ids
 * of "Pet" by rowid (docs/decisions/050-category-blocks.md): SQLite has no ("categoryId", "id") index, whose
 * upkeep cost every create a page write. `ids` bounds the blocks read to those a page can come from.
 */
interface RowSource {
  from: SqlText;
  where: SqlStatement[];
  orderBy: (order: "ASC" | "DESC") => SqlText;
}

const PETS: RowSource = { from: raw(`"Pet"`), where: [], orderBy: (order) => raw(`"id" ${order}`) };

/** The ids a listing reads: above `above`, below `below`. */
interface IdBounds {
  above?: number | undefined;
  below?: number | undefined;
}

function rowSource(provider: DatabaseProvider, categoryId: number | undefined, ids: IdBounds = {}): RowSource {
  if (categoryId === undefined || provider !== "sqlite") return PETS;
  const where = [
    sql`"PetBlock"."category" = ${categoryId}`,
    sql`"Pet"."id" BETWEEN "PetBlock"."block" * ${raw(String(PET_BLOCK_SIZE))} AND "PetBlock"."block" * ${raw(String(PET_BLOCK_SIZE))} + ${raw(String(PET_BLOCK_SIZE - 1))}`,
  ];
  if (ids.above !== undefined) where.push(sql`"PetBlock"."block" >= ${Math.floor(ids.above / PET_BLOCK_SIZE)}`);
  if (ids.below !== undefined) where.push(sql`"PetBlock"."block" <= ${Math.floor(ids.below / PET_BLOCK_SIZE)}`);
  // CROSS JOIN keeps "PetBlock" the outer loop: SQLite then reads both in order, and stops at the page's end.
  return {
    from: raw(`"PetBlock" CROSS JOIN "Pet"`),
    where,
    orderBy: (order) => raw(`"PetBlock"."block" ${order}, "Pet"."id" ${order}`),
  };
}

/** The condition that keeps a read through a category's blocks to the first `blocks` of them in `order`, within `ids`. */
function firstBlocks(categoryId: number, ids: IdBounds, order: "ASC" | "DESC", blocks: number): SqlStatement {
  return order === "ASC"
    ? sql`"PetBlock"."block" <= (SELECT max("block") FROM (SELECT "block" FROM "PetBlock" WHERE "category" = ${categoryId}
        AND "block" >= ${Math.floor((ids.above ?? 0) / PET_BLOCK_SIZE)} ORDER BY "block" ASC LIMIT ${blocks}) AS "walked")`
    : sql`"PetBlock"."block" >= (SELECT min("block") FROM (SELECT "block" FROM "PetBlock" WHERE "category" = ${categoryId}
        AND "block" <= ${Math.floor((ids.below ?? Number.MAX_SAFE_INTEGER) / PET_BLOCK_SIZE)} ORDER BY "block" DESC LIMIT ${blocks}) AS "walked")`;
}

/**
 * A category whose pets lie in at most this many blocks is read whole on SQLite when a common name's
 * walk falls short: its blocks hold every match, and reading them (65,536 rowids at most, a few
 * milliseconds) costs less than the name's key ranges, which may hold a hundred thousand pets of other
 * categories. A category spread over more blocks would cost a scan of the store: the ranges answer.
 */
const CATEGORY_WALK_MAX_BLOCKS = 64;

/** A walk through a category's blocks reads up to this many rows per row of the name search's cap. */
const WALK_ROWS_PER_CAP = 8;

/** How many pets the triggers count with the status and category filters (exact; never reads the pets). */
function* countedPets({ status, categoryId }: PetFilters): SqlWork<number> {
  const where: SqlStatement[] = [];
  if (status !== undefined) where.push(sql`"status" = ${status}`);
  if (categoryId !== undefined) where.push(sql`"categoryId" = ${categoryId}`);
  const counted = yield* countRows();
  const summed = yield* firstRow<{ n: unknown }>(
    sql`SELECT CAST(coalesce(sum("count"), 0) AS BIGINT) AS "n" FROM ${counted}${whereClause(where)}`,
  );
  return toNumber(summed?.n ?? 0);
}

/** Up to `take` rows of `columns` matching the filters and `where`, in id order `order`, a name search as its plan reads it. */
function* matchingRows<Row>(
  filters: PetFilters,
  where: SqlStatement[],
  ids: IdBounds,
  order: "ASC" | "DESC",
  take: number,
  columns: SqlText,
): SqlWork<Row[]> {
  const on = yield* provider();
  const source = rowSource(on, filters.categoryId, ids);
  // A category with no pet (of the status asked) is answered from the counts: no index or block is read
  // for a combination that matches nothing, the slowest to look for.
  const inCategory = filters.categoryId === undefined ? undefined : yield* countedPets(filters);
  if (inCategory === 0) return [];
  if (filters.name === undefined) {
    return yield* rows<Row>(
      sql`SELECT ${columns} FROM ${source.from}${whereClause([...source.where, ...where])} ORDER BY ${source.orderBy(order)} LIMIT ${take}`,
    );
  }
  // A walk reads the filters' rows in id order (the category's blocks, on SQLite); the key ranges read
  // the name's matches, few by their plan, and check the rest of the filters on each.
  const walk = {
    columns,
    from: source.from,
    where: allOf([...source.where, ...where]),
    orderBy: source.orderBy(order),
    order,
    take,
  };
  const ranges = { columns, from: PETS.from, where: allOf(where), order, take };
  if (source !== PETS && filters.name.kind === "walk" && filters.categoryId !== undefined && inCategory !== undefined) {
    const blocks = yield* firstRow<{ n: unknown }>(
      sql`SELECT count(*) AS "n" FROM (SELECT 1 FROM "PetBlock" WHERE "category" = ${filters.categoryId} LIMIT ${CATEGORY_WALK_MAX_BLOCKS + 1}) AS "blocks"`,
    );
    if (toNumber(blocks?.n ?? 0) <= CATEGORY_WALK_MAX_BLOCKS)
      return yield* rows<Row>(nameConditionStatement(walk, filters.name.needle, inCategory));
  }
  return yield* readNameSearch(filters.name, take, (name, walkRows) => {
    if (walkRows === undefined) return rows<Row>(nameConditionStatement(ranges, name));
    if (source === PETS) return rows<Row>(nameConditionStatement(walk, name, walkRows));
    // Through the blocks a walk's bound is of rows read, not of the category's rows (a category of 1 % of
    // the pets would cost 100 times the cap): its first 8 x walkRows / 1,024 blocks, read whole. 8: a
    // rowid read in a block costs far less than an index entry and its row, and a walk that falls short
    // sends the page to the name's key ranges, which a common word makes long (1M pets: `1` in a category
    // of 1 %, 68 ms from the ranges, under 5 ms walked so).
    const blocks = Math.ceil((WALK_ROWS_PER_CAP * walkRows) / PET_BLOCK_SIZE);
    const bound = firstBlocks(filters.categoryId!, ids, order, blocks);
    return rows<Row>(
      nameConditionStatement(
        { ...walk, where: allOf([...source.where, bound, ...where]) },
        name,
        blocks * PET_BLOCK_SIZE,
      ),
    );
  });
}

/**
 * Up to `take` pets matching the filters, in ascending id order: those above `after`, or, with `before`,
 * the `take` just below it (read downwards, answered upwards).
 */
export function* filteredPets(query: FilteredPageQuery): SqlWork<Pet[]> {
  const where = conditions(query);
  if (query.after !== undefined) where.push(sql`"id" > ${query.after}`);
  if (query.before !== undefined) where.push(sql`"id" < ${query.before}`);
  const found = yield* matchingRows<PetRow>(
    query,
    where,
    { above: query.after, below: query.before },
    query.before !== undefined ? "DESC" : "ASC",
    query.take,
    COLUMNS,
  );
  const pets = found.map(toPet);
  return query.before !== undefined ? pets.reverse() : pets;
}

/** Whether a pet matching the filters has an id above `id` (the page below `before` has a next page). */
export function* anyPetAbove(filters: PetFilters, id: number): SqlWork<boolean> {
  const found = yield* matchingRows(
    filters,
    [...conditions(filters), sql`"id" > ${id}`],
    { above: id },
    "ASC",
    1,
    raw(`"id"`),
  );
  return found.length > 0;
}

/**
 * How many pets match the filters, as `X-Total-Count` says it. Status and category alone: summed from the
 * counts the triggers keep (exact, without reading the pets). With a name search: counted, up to
 * NAME_COUNT_CAP, then `10000+`.
 */
export function* totalCount(filters: PetFilters): SqlWork<string> {
  if (filters.name !== undefined) {
    // Few matches: the key ranges hold them all. Many: checking each pet in id order meets the cap sooner.
    const name = filters.name.kind === "range" ? filters.name.range : filters.name.needle;
    const source = filters.name.kind === "range" ? PETS : rowSource(yield* provider(), filters.categoryId);
    const capped = yield* firstRow<{ n: unknown }>(
      sql`SELECT count(*) AS "n" FROM (SELECT 1 FROM ${source.from}${whereClause([...source.where, ...conditions(filters), name])} LIMIT ${NAME_COUNT_CAP + 1}) AS "matches"`,
    );
    const n = toNumber(capped?.n ?? 0);
    return n > NAME_COUNT_CAP ? `${NAME_COUNT_CAP}+` : String(n);
  }
  return String(yield* countedPets(filters));
}

/**
 * listPets with any of the extensions: the page and, when asked, its total as `X-Total-Count` (read
 * together: one read transaction on SQLite; on PostgreSQL two statements, which a create between them
 * may set one apart), and `Link`: `rel="next"` past the page's last id when more match,
 * and, for a page asked with `before`, `rel="prev"` below its first id when more match there.
 */
export async function listWithExtensions(
  runner: SqlRunner,
  query: ListPetsQuery,
  req: Pick<Request, "baseUrl" | "path">,
  res: Pick<Response, "setHeader">,
): Promise<Pet[]> {
  const { page, more, above, total } = await runner.read(function* () {
    const name =
      query.name !== undefined
        ? yield* planNameSearch(query.name, { take: rowsToRead(query.limit), after: query.after })
        : undefined;
    // A search without a letter or digit matches no pet.
    if (name === null) return { page: [], more: false, above: false, total: query.count === "true" ? "0" : undefined };
    const filters: PetFilters = { status: query.status, categoryId: query.categoryId, name };
    const found = yield* filteredPets({
      ...filters,
      take: rowsToRead(query.limit),
      after: query.after,
      before: query.before,
    });
    // Read one more than the page: the extra row is the one beyond it (below it, with `before`).
    const more = found.length > query.limit;
    const page =
      query.before !== undefined
        ? found.slice(found.length - Math.min(found.length, query.limit))
        : found.slice(0, query.limit);
    const last = page.at(-1);
    const above = query.before !== undefined && last !== undefined ? yield* anyPetAbove(filters, last.id) : false;
    // The total counts the matches below `after` too: a range plan's condition holds only those above it.
    let total: string | undefined;
    if (query.count === "true") {
      const everyMatch =
        query.name === undefined || query.after === undefined
          ? name
          : ((yield* planNameSearch(query.name, { take: rowsToRead(query.limit) })) ?? undefined);
      total = yield* totalCount({ ...filters, name: everyMatch });
    }
    return { page, more, above, total };
  });
  const kept = { status: query.status, name: query.name, categoryId: query.categoryId, count: query.count };
  const link = (position: "after" | "before", id: number) => pageLink(query.limit, kept, position, id, req);
  const links: string[] = [];
  if (query.before !== undefined) {
    if (more && page[0]) links.push(`${link("before", page[0].id)}; rel="prev"`);
    if (above) links.push(`${link("after", page.at(-1)!.id)}; rel="next"`);
  } else if (more && page.at(-1)) {
    links.push(`${link("after", page.at(-1)!.id)}; rel="next"`);
  }
  if (links.length > 0) res.setHeader("Link", links.join(", "));
  if (total !== undefined) res.setHeader("X-Total-Count", total);
  return page;
}
