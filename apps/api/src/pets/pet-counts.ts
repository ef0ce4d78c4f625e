import { execute, provider, raw, sql, type SqlStatement, type SqlWork } from "../data/sql-work.js";

/**
 * The pets' counts by (categoryId, status), as triggers on "Pet" keep them in the transaction of every
 * write (the migrations; "" stands for no status). SQLite, one writer at a time: one "PetCount" row each,
 * upserted. PostgreSQL (docs/decisions/052-counts-as-deltas.md): each write appends its +1 or -1 to
 * "PetCountDelta", a heap with no index that no two writers contend on, and `foldPetCounts` moves the
 * deltas into "PetCount" now and then; a reader sums both, so a count is exact at every moment.
 */

/** A table expression of the counts' rows, `("categoryId", "status", "count")`, to sum: aliased "PetCount". */
export function* countRows(): SqlWork<SqlStatement> {
  if ((yield* provider()) === "sqlite") return sql`${raw(`"PetCount"`)}`;
  return sql`(SELECT "categoryId", "status", "count" FROM "PetCount"
      UNION ALL SELECT "categoryId", "status", "delta" FROM "PetCountDelta") AS "PetCount"`;
}

/** The advisory lock of a fold (decision 052; categories.ts takes 46,001): one process folds at a time, the others skip. */
const FOLD_LOCK = 52_001;

/**
 * Moves every committed delta into its "PetCount" row, in one statement (atomic: a reader sums the same
 * before and after). Returns the deltas moved; 0 on SQLite, which keeps no deltas, or when another process
 * is folding just now. Two folds at once could not count a delta twice either: the second waits on the
 * first's deleted rows and then skips them.
 */
export function* foldPetCounts(): SqlWork<number> {
  if ((yield* provider()) === "sqlite") return 0;
  return yield* execute(sql`
    WITH "moved" AS (
      DELETE FROM "PetCountDelta" WHERE (SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}::bigint))
      RETURNING "categoryId", "status", "delta"
    )
    INSERT INTO "PetCount" ("categoryId", "status", "slot", "count")
    SELECT "categoryId", "status", 0, sum("delta") FROM "moved" GROUP BY "categoryId", "status"
    ON CONFLICT ("categoryId", "status", "slot") DO UPDATE SET "count" = "PetCount"."count" + excluded."count"`);
}
