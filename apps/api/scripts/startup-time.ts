/**
 * Start-up time: from spawning the built API to its first `/readyz` 200, on a
 * database that is already current (nothing to migrate), for SQLite and, when
 * a server is reachable, PostgreSQL. Prints min / median / max per provider.
 *
 *   corepack pnpm --filter @petstore/api build
 *   corepack pnpm --filter @petstore/api startup-time [runs, default 5]
 *
 * PostgreSQL: PG_TEST_URL, else the local server (see src/test/postgres-admin.ts).
 * A figure, not a test: speed goals belong in docs/performance.md, not in a timed assertion.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase } from "../src/data/migrate.js";
import { startApiProcess } from "../src/test/api-process.js";
import { createDatabase, databaseUrl, dropDatabase, postgresAvailable } from "../src/test/postgres-admin.js";

const RUNS = Number(process.argv[2] ?? 5);

/** Milliseconds from spawn to the first 200 from /readyz, polling every 10 ms. */
async function timeToReady(url: string): Promise<number> {
  const started = performance.now();
  const api = await startApiProcess({ API_KEYS: "startup-time-key-0123456789abcdefghijklmnop", DATABASE_URL: url });
  try {
    for (;;) {
      if (api.child.exitCode !== null) throw new Error(`the API exited:\n${api.output()}`);
      try {
        if ((await fetch(`${api.url}/readyz`)).status === 200) return performance.now() - started;
      } catch {
        // not listening yet (or the port is not reported yet)
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await api.stop();
  }
}

async function measure(label: string, url: string) {
  await migrateDatabase(url); // current before the first timed start
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) times.push(await timeToReady(url));
  times.sort((a, b) => a - b);
  const ms = (value: number) => `${Math.round(value)} ms`;
  console.log(
    `${label}: min ${ms(times[0]!)}, median ${ms(times[Math.floor(times.length / 2)]!)}, max ${ms(times.at(-1)!)} (${RUNS} runs)`,
  );
}

const folder = mkdtempSync(path.join(tmpdir(), "petstore-startup-"));
try {
  await measure("sqlite", `file:${path.join(folder, "startup.db")}`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const unavailable = await postgresAvailable();
if (unavailable) {
  console.log(`postgresql: not measured (${unavailable})`);
} else {
  const name = `petstore_startup_${process.pid}`;
  await createDatabase(name);
  try {
    await measure("postgresql", databaseUrl(name));
  } finally {
    await dropDatabase(name);
  }
}
