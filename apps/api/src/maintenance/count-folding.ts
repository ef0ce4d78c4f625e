import type { SqlRunner } from "../data/sql-work.js";
import { foldPetCounts } from "../pets/pet-counts.js";

/** How often each API process folds the pets' count deltas on PostgreSQL (decision 052). */
export const FOLD_EVERY_MS = 1_000;

/**
 * Folds the count deltas every `everyMs` on PostgreSQL (SQLite keeps none): the deltas readers sum stay a
 * second's writes, whatever the load. A fold that fails (the database away) is retried at the next; the
 * counts stay exact meanwhile, only their rows more numerous. Nothing to start on SQLite.
 */
export function startCountFolding(
  runner: SqlRunner,
  { everyMs = FOLD_EVERY_MS } = {},
): { stop(): Promise<void> } | undefined {
  if (runner.provider !== "postgresql") return undefined;
  let last: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    last = last.then(() => runner.transaction(foldPetCounts).catch(() => {}));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await last;
    },
  };
}
