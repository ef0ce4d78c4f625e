import { openDatabase } from "../database.js";
import { execute, sql } from "../data/sql-work.js";

/** A heartbeat row of a process killed two days ago (host `gone`): the next retention purge removes it. */
export async function insertStaleHeartbeat(databaseUrl: string): Promise<void> {
  const db = await openDatabase({ url: databaseUrl, poolSize: 1 });
  try {
    const then = new Date(Date.now() - 2 * 86_400_000);
    await db.sql.transaction(() =>
      execute(
        sql`INSERT INTO "ApiHeartbeat" ("id", "host", "pid", "startedAt", "beatAt") VALUES ('gone:1:ab', 'gone', 1, ${then}, ${then})`,
      ),
    );
  } finally {
    await db.close();
  }
}
