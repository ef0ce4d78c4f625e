import { CATEGORIES_MAX, MAX_ID, type Category } from "@petstore/contract";
import type { AuditContext } from "../activity/audit-event.js";
import { recordActivity } from "../activity/recorded-activity.js";
import {
  execute,
  firstRow,
  forUpdate,
  provider,
  rows,
  sql,
  toNumber,
  type SqlRunner,
  type SqlWork,
} from "../data/sql-work.js";
import { foldName } from "../pets/name-key.js";

/**
 * Categories by name (beyond the spec; docs/decisions/046-the-store-at-a-glance.md): a name for a
 * `categoryId`. Pets keep their ids whether or not a category names them. Each write is one unit of work
 * for both providers; on PostgreSQL an advisory lock serialises them across replicas (the cap of 1,000 and
 * the next id are read, then written), as SQLite's one writer does.
 */

/** What naming a category came to. */
export type CategoryOutcome = { kind: "done"; category: Category } | { kind: "conflict"; message: string };
/** What renaming one came to: the id may name no category. */
export type RenameOutcome = CategoryOutcome | { kind: "not-found" };

/** The advisory lock every category write takes on PostgreSQL (any constant of the API's own). */
const CATEGORY_WRITES_LOCK = 46_001;

interface CategoryRow {
  id: unknown;
  name: string;
}

const toCategory = (row: CategoryRow): Category => ({ id: toNumber(row.id), name: row.name });

function* lockCategoryWrites(): SqlWork<void> {
  // Executed, not read: the function returns void, which the driver cannot read as a column.
  if ((yield* provider()) === "postgresql")
    yield* execute(sql`SELECT pg_advisory_xact_lock(${CATEGORY_WRITES_LOCK}::bigint)`);
}

function* namedAlready(key: string, exceptId?: number): SqlWork<CategoryOutcome | undefined> {
  const taken = yield* firstRow<CategoryRow>(sql`SELECT "id", "name" FROM "Category" WHERE "nameKey" = ${key}`);
  if (taken && toNumber(taken.id) !== exceptId)
    return { kind: "conflict", message: `A category is named ${taken.name} already.` };
  return undefined;
}

/** Every category, by name (folded, as search folds it), then id. */
export function* listCategories(): SqlWork<Category[]> {
  const found = yield* rows<CategoryRow>(
    sql`SELECT "id", "name" FROM "Category" ORDER BY "nameKey", "id" LIMIT ${CATEGORIES_MAX}`,
  );
  return found.map(toCategory);
}

/**
 * Names a category: `id` given, that id; else the next above every category's and every pet's (deleted
 * ones too: a restored pet keeps its `categoryId`).
 */
export function* createCategory(
  request: { name: string; id?: number | undefined },
  audit: AuditContext,
  now: Date,
): SqlWork<CategoryOutcome> {
  yield* lockCategoryWrites();
  const key = foldName(request.name);
  const count = yield* firstRow<{ n: unknown }>(sql`SELECT count(*) AS "n" FROM "Category"`);
  if (toNumber(count?.n ?? 0) >= CATEGORIES_MAX) {
    return {
      kind: "conflict",
      message: `The store has ${CATEGORIES_MAX.toLocaleString("en")} categories, the most it keeps; rename one instead.`,
    };
  }
  const taken = yield* namedAlready(key);
  if (taken) return taken;
  let id = request.id;
  if (id !== undefined) {
    const named = yield* firstRow<CategoryRow>(sql`SELECT "id", "name" FROM "Category" WHERE "id" = ${id}`);
    if (named)
      return { kind: "conflict", message: `Category ${id} is named ${named.name} already; rename it instead.` };
  } else {
    // SQLite has no index on the pets' "categoryId" (docs/decisions/050-category-blocks.md): its counts,
    // one row per category and status (one slot), say which ids pets carry, highest first by their key.
    const carried =
      (yield* provider()) === "sqlite"
        ? sql`SELECT (SELECT "categoryId" FROM "PetCount" WHERE "count" <> 0 ORDER BY "categoryId" DESC LIMIT 1)`
        : sql`SELECT max("categoryId") FROM "Pet"`;
    const highest = yield* firstRow<{ n: unknown }>(
      sql`SELECT max("n") AS "n" FROM (
            SELECT max("id") AS "n" FROM "Category"
            UNION ALL ${carried}
            UNION ALL SELECT max("categoryId") FROM "DeletedPet"
          ) AS "highest"`,
    );
    id = toNumber(highest?.n ?? 0) + 1;
    if (!Number.isSafeInteger(id) || id > MAX_ID)
      return { kind: "conflict", message: "No category id is left above the ones in use; give an id." };
  }
  yield* execute(
    sql`INSERT INTO "Category" ("id", "name", "nameKey", "createdAt") VALUES (${id}, ${request.name}, ${key}, ${now})`,
  );
  yield* recordActivity(now, "category.created", { type: "category", id, label: request.name }, audit);
  return { kind: "done", category: { id, name: request.name } };
}

/** Gives a category another name; the same name again changes nothing and records nothing. */
export function* renameCategory(
  request: { id: number; name: string },
  audit: AuditContext,
  now: Date,
): SqlWork<RenameOutcome> {
  yield* lockCategoryWrites();
  const row = yield* firstRow<CategoryRow>(
    sql`SELECT "id", "name" FROM "Category" WHERE "id" = ${request.id}${yield* forUpdate()}`,
  );
  if (!row) return { kind: "not-found" };
  if (row.name === request.name) return { kind: "done", category: toCategory(row) };
  const key = foldName(request.name);
  const taken = yield* namedAlready(key, request.id);
  if (taken) return taken;
  yield* execute(sql`UPDATE "Category" SET "name" = ${request.name}, "nameKey" = ${key} WHERE "id" = ${request.id}`);
  yield* recordActivity(now, "category.renamed", { type: "category", id: request.id, label: request.name }, audit);
  return { kind: "done", category: { id: request.id, name: request.name } };
}

/** The category operations on a database. */
export function createCategories(runner: SqlRunner) {
  return {
    list: () => runner.read(listCategories),
    create: (request: { name: string; id?: number | undefined }, audit: AuditContext) =>
      runner.transaction(() => createCategory(request, audit, new Date())),
    rename: (request: { id: number; name: string }, audit: AuditContext) =>
      runner.transaction(() => renameCategory(request, audit, new Date())),
  };
}
export type Categories = ReturnType<typeof createCategories>;
