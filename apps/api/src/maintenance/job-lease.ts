import { execute, firstRow, sql, toDateOrNull, type SqlRunner } from "../data/sql-work.js";

/**
 * Work one replica does at a time, by a lease row in the database (`JobLease`): whoever holds an
 * unexpired lease runs the job; `lastRunAt` tells the others it is done for now. A holder that dies
 * leaves a lease that expires, and another takes over.
 */
export interface JobLease {
  /**
   * Takes the lease when it is free and the job is due (its last run older than `dueAfterMs`; 0: always).
   * Answers whether this process holds it now.
   */
  take(options: { holder: string; leaseMs: number; dueAfterMs: number; at: Date }): Promise<boolean>;
  /** Moves an held lease's end (a long job renews it as it goes). */
  renew(options: { holder: string; leaseMs: number; at: Date }): Promise<boolean>;
  /** Gives the lease back; `ran` records the run's time as its last. */
  release(options: { holder: string; at: Date; ran: boolean }): Promise<void>;
  /** When the job last finished a run, on any replica. */
  lastRunAt(): Promise<Date | null>;
}

export function jobLease(runner: SqlRunner, name: string): JobLease {
  return {
    take: ({ holder, leaseMs, dueAfterMs, at }) =>
      runner.transaction(function* () {
        yield* execute(sql`INSERT INTO "JobLease" ("name") VALUES (${name}) ON CONFLICT ("name") DO NOTHING`);
        const until = new Date(at.getTime() + leaseMs);
        const dueBefore = new Date(at.getTime() - dueAfterMs);
        const taken = yield* execute(sql`
          UPDATE "JobLease" SET "holder" = ${holder}, "leaseUntil" = ${until}
          WHERE "name" = ${name}
            AND ("leaseUntil" IS NULL OR "leaseUntil" < ${at} OR "holder" = ${holder})
            AND ("lastRunAt" IS NULL OR "lastRunAt" <= ${dueBefore})`);
        return taken === 1;
      }),
    renew: ({ holder, leaseMs, at }) =>
      runner.transaction(function* () {
        const until = new Date(at.getTime() + leaseMs);
        return (
          (yield* execute(
            sql`UPDATE "JobLease" SET "leaseUntil" = ${until} WHERE "name" = ${name} AND "holder" = ${holder}`,
          )) === 1
        );
      }),
    release: ({ holder, at, ran }) =>
      runner.transaction(function* () {
        yield* execute(
          ran
            ? sql`UPDATE "JobLease" SET "holder" = NULL, "leaseUntil" = NULL, "lastRunAt" = ${at} WHERE "name" = ${name} AND "holder" = ${holder}`
            : sql`UPDATE "JobLease" SET "holder" = NULL, "leaseUntil" = NULL WHERE "name" = ${name} AND "holder" = ${holder}`,
        );
      }),
    lastRunAt: () =>
      runner.read(function* () {
        const row = yield* firstRow<{ lastRunAt: unknown }>(
          sql`SELECT "lastRunAt" FROM "JobLease" WHERE "name" = ${name}`,
        );
        return toDateOrNull(row?.lastRunAt);
      }),
  };
}
