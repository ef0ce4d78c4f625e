/**
 * corepack pnpm --filter @petstore/bench upkeep [--pets=N] [--activity=N] [--seconds=S]
 *
 * What the API's upkeep costs the requests it serves (docs/operations.md), on SQLite, where the API's one
 * connection and event loop are shared with its own retention purge:
 *
 *   backup   listPets latency under a paced load (wrk on core 0, the API on core 1, the load well below
 *            saturation, so latency is service time, not queueing), without and then with the operator's
 *            `backup` command running back to back (each a full copy plus its verification by a restore),
 *            the command left to the scheduler as an operator's would be. Goal: p99 during backups within
 *            2x of without.
 *   purge    the API started on a database with N activity rows older than the retention (ACTIVITY_RETENTION_DAYS
 *            90, the rows 100 days old), so its purge at start deletes them all while the same paced load runs;
 *            then the same load again with nothing to purge. Goal: no request waits on the purge more than
 *            50 ms: the slowest request during the purge within 50 ms of the slowest without, and the
 *            purge's longest batch (its log line) under 50 ms.
 *
 * Prints the figures and wrk's headroom (its core's use) as Markdown lines.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import Sqlite from "better-sqlite3";
import { migrateDatabase } from "@petstore/api/migrate";
import { ensureLoadGenerator, GENERATOR_CPU, SERVER_CPU } from "./load.js";
import { seedSqlite } from "./seed.js";
import { freshSqliteCopy } from "./databases.js";
import { productionApiCommand, startServer, stopServer, processCpuNs, type RunningServer } from "./server-process.js";

const run = promisify(execFile);
const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "apps", "api");
const KEY = "bench-upkeep-key-0123456789abcdefghijkl";
const DAY_MS = 86_400_000;

function option(name: string, fallback: number): number {
  const given = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return given ? Number(given.slice(name.length + 3)) : fallback;
}

interface Latency {
  p50: number;
  p99: number;
  max: number;
  rate: number;
  /** wrk's own core's use over the run (its headroom is the rest). */
  generatorCpu: number;
}

/** wrk's figures in ms (`1.23ms`, `850.00us`, `1.02s`). */
const ms = (text: string) => {
  const match = /^([0-9.]+)(us|ms|s)$/.exec(text.trim());
  if (!match) return NaN;
  return Number(match[1]) * (match[2] === "us" ? 0.001 : match[2] === "s" ? 1000 : 1);
};

/**
 * A paced load: each of `connections` sends a request, waits `pauseMs` after the answer, again. wrk's
 * `delay()` makes it an open-ish load well below saturation, so a request that waits shows as latency.
 */
async function pacedLoad(wrk: string, url: string, seconds: number, dir: string): Promise<Latency> {
  const script = path.join(dir, "paced.lua");
  writeFileSync(script, `wrk.headers["Authorization"] = "Bearer ${KEY}"\nfunction delay() return 4 end\n`);
  const started = process.hrtime.bigint();
  const child = execFile("taskset", [
    "-c",
    String(GENERATOR_CPU),
    wrk,
    "-t1",
    "-c8",
    `-d${seconds}s`,
    "--latency",
    "-s",
    script,
    `${url}/v1/pets?limit=20`,
  ]);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const cpuBefore = processCpuNs(child.pid!);
  let cpuAfter = cpuBefore;
  const sampler = setInterval(() => {
    try {
      cpuAfter = processCpuNs(child.pid!);
    } catch {
      // exited
    }
  }, 200);
  await new Promise((resolve) => child.once("exit", resolve));
  clearInterval(sampler);
  const wallNs = Number(process.hrtime.bigint() - started);
  const latencyLine = /Latency\s+(\S+)\s+(\S+)\s+(\S+)/.exec(output);
  const percentile = (p: string) => ms(new RegExp(`\\s${p}%\\s+(\\S+)`).exec(output)?.[1] ?? "");
  return {
    p50: percentile("50"),
    p99: percentile("99"),
    max: ms(latencyLine?.[3] ?? ""),
    rate: Number(/Requests\/sec:\s+([0-9.]+)/.exec(output)?.[1] ?? NaN),
    generatorCpu: (cpuAfter - cpuBefore) / wallNs,
  };
}

const apiEnv = (databaseUrl: string, extra: Record<string, string> = {}) => ({
  NODE_ENV: "production",
  API_KEYS: KEY,
  DATABASE_URL: databaseUrl,
  PUBLIC_URL_PRODUCTION: "https://api.petstore.test/v1",
  RATE_LIMIT_PER_MIN: "0",
  AUTH_FAILURES_PER_MIN: "0",
  SEED: "false",
  LOG_LEVEL: "info",
  ...extra,
});

async function startApi(
  databaseUrl: string,
  logFile: string,
  extra: Record<string, string> = {},
): Promise<RunningServer> {
  const { script, nodeArgs, cwd } = productionApiCommand(API_ROOT);
  return startServer(script, apiEnv(databaseUrl, extra), { nodeArgs, cwd, logFile, cpu: SERVER_CPU });
}

const row = (label: string, l: Latency) =>
  `| ${label} | ${l.p50.toFixed(2)} | ${l.p99.toFixed(2)} | ${l.max.toFixed(1)} | ${l.rate.toFixed(0)} | ${(100 * l.generatorCpu).toFixed(0)} % |`;
const HEADER = "| load | p50 ms | p99 ms | max ms | req/s | wrk's core |\n|---|---|---|---|---|---|";

async function main(): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const wrk = ensureLoadGenerator(log);
  const pets = option("pets", 200_000);
  const activity = option("activity", 1_000_000);
  const seconds = option("seconds", 15);
  const dir = mkdtempSync(path.join(tmpdir(), "petstore-upkeep-"));
  try {
    const template = path.join(dir, "template.db");
    await migrateDatabase(`file:${template}`);
    seedSqlite(template, pets);
    log(`seeded ${pets} pets`);

    // Backups while serving.
    const database = path.join(dir, "backup-bench.db");
    freshSqliteCopy(template, database);
    const api = await startApi(`file:${database}`, path.join(dir, "api-backup.log"));
    let without: Latency;
    let during: Latency;
    const backups: number[] = [];
    try {
      await pacedLoad(wrk, api.url, 3, dir);
      without = await pacedLoad(wrk, api.url, seconds, dir);
      let backingUp = true;
      const loop = (async () => {
        while (backingUp) {
          const started = Date.now();
          await run(
            process.execPath,
            [
              path.join(API_ROOT, "dist", "operations-command.js"),
              "backup",
              "--to",
              path.join(dir, "backups"),
              "--keep",
              "1",
            ],
            {
              cwd: API_ROOT,
              env: { PATH: process.env["PATH"] ?? "", DATABASE_URL: `file:${database}` },
            },
          );
          backups.push((Date.now() - started) / 1000);
        }
      })();
      during = await pacedLoad(wrk, api.url, seconds, dir);
      backingUp = false;
      await loop;
    } finally {
      await stopServer(api);
    }
    const size = readFileSync(database).length;
    const backupLines = [
      `## Backups while serving (SQLite, ${pets} pets, ${(size / 1_048_576).toFixed(0)} MB)`,
      "",
      HEADER,
      row("listPets, paced", without),
      row(
        `listPets, paced, ${backups.length} backups back to back (each ${Math.min(...backups).toFixed(1)}-${Math.max(...backups).toFixed(1)} s)`,
        during,
      ),
      "",
      `p99 during backups / without: ${(during.p99 / without.p99).toFixed(2)}x (goal: within 2x); p50 ${(during.p50 / without.p50).toFixed(2)}x`,
    ];

    // The retention purge at start, on a backlog of activity rows.
    const purgeDatabase = path.join(dir, "purge-bench.db");
    freshSqliteCopy(template, purgeDatabase);
    const db = new Sqlite(purgeDatabase);
    const old = new Date(Date.now() - 100 * DAY_MS).toISOString().replace("Z", "+00:00");
    const insert = db.prepare(
      `INSERT INTO "AuditEvent" ("at", "action", "actorKeyId", "actorName", "targetType", "targetId", "targetLabel", "requestId", "clientAddress") VALUES (?, 'pet.created', '1', 'Front desk', 'pet', ?, ?, 'req-0123456789abcdef', '203.0.113.7')`,
    );
    // The webhook senders read the event log, not these rows (decision 053): nothing of theirs to move.
    db.transaction(() => {
      for (let n = 1; n <= activity; n++) insert.run(old, n, `pet ${n}`);
    })();
    db.close();
    log(`added ${activity} activity rows 100 days old`);
    const logFile = path.join(dir, "api-purge.log");
    const purging = await startApi(`file:${purgeDatabase}`, logFile, { ACTIVITY_RETENTION_DAYS: "90" });
    let duringPurge: Latency;
    let afterPurge: Latency;
    let purgeLine: { msg: string; seconds?: number; longestBatchMs?: number } | undefined;
    try {
      // Load in 5 s runs until the purge's log line appears: the worst run's p99 and max, the runs' median p50.
      const runs: Latency[] = [];
      const purged = () =>
        readFileSync(logFile, "utf8")
          .split("\n")
          .filter((line) => line.includes('"retention: purged'));
      while (purged().length === 0 && runs.length < 60) {
        const one = await pacedLoad(wrk, purging.url, 5, dir);
        log(`purge run ${runs.length + 1}: p50 ${one.p50} ms, p99 ${one.p99} ms, max ${one.max} ms, ${one.rate} req/s`);
        runs.push(one);
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      duringPurge = {
        p50: median(runs.map((r) => r.p50)),
        p99: Math.max(...runs.map((r) => r.p99)),
        max: Math.max(...runs.map((r) => r.max)),
        rate: runs.reduce((sum, r) => sum + r.rate, 0) / runs.length,
        generatorCpu: Math.max(...runs.map((r) => r.generatorCpu)),
      };
      const lines = purged();
      purgeLine = lines.length > 0 ? (JSON.parse(lines.at(-1)!) as typeof purgeLine) : undefined;
      afterPurge = await pacedLoad(wrk, purging.url, seconds, dir);
    } finally {
      await stopServer(purging);
    }
    const purgeLines = [
      `## The retention purge at start (SQLite, ${activity} activity rows past the retention)`,
      "",
      purgeLine ? `${purgeLine.msg}` : "the purge had not finished after 60 runs of 5 s",
      "",
      HEADER,
      row("listPets, paced, while the purge runs (5 s runs: the worst p99 and max, the median p50)", duringPurge),
      row("listPets, paced, nothing to purge", afterPurge),
      "",
      `slowest request during the purge: ${duringPurge.max.toFixed(1)} ms, ${(duringPurge.max - afterPurge.max).toFixed(1)} ms over the slowest without (goal: within 50 ms); longest batch ${purgeLine?.longestBatchMs?.toFixed(1) ?? "?"} ms (goal: under 50 ms)`,
    ];
    process.stdout.write(`${[...backupLines, "", ...purgeLines].join("\n")}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`upkeep bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
