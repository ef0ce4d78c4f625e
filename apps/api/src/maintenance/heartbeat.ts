import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { execute, sql, type SqlRunner } from "../data/sql-work.js";
import { HEARTBEAT_EVERY_MS } from "./restore.js";

export interface Heartbeat {
  /** This process's row id: `<host>:<pid>:<random>`. */
  readonly id: string;
  /** Stops beating and deletes the row, so a restore after a clean stop needs no `--force`. */
  stop(): Promise<void>;
}

/**
 * Writes this process's row in `ApiHeartbeat` now and every 5 s: how `restore` tells a database an API
 * serves from one nobody uses. A failed beat (the database away) is retried at the next; it never stops
 * the API.
 */
export function startHeartbeat(
  runner: SqlRunner,
  { now = () => new Date(), everyMs = HEARTBEAT_EVERY_MS, host = hostname() } = {},
): Heartbeat {
  const id = `${host}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const startedAt = now();
  const beat = () => runner.transaction(() => upsertBeat(id, host, startedAt, now())).catch(() => {});
  let last = beat();
  const timer = setInterval(() => {
    last = last.then(beat);
  }, everyMs);
  timer.unref();
  return {
    id,
    async stop() {
      clearInterval(timer);
      await last;
      await runner.transaction(() => execute(sql`DELETE FROM "ApiHeartbeat" WHERE "id" = ${id}`)).catch(() => {});
    },
  };
}

function* upsertBeat(id: string, host: string, startedAt: Date, at: Date) {
  return yield* execute(sql`
    INSERT INTO "ApiHeartbeat" ("id", "host", "pid", "startedAt", "beatAt") VALUES (${id}, ${host}, ${process.pid}, ${startedAt}, ${at})
    ON CONFLICT ("id") DO UPDATE SET "beatAt" = excluded."beatAt"`);
}
