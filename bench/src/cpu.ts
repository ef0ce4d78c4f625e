/**
 * node dist/cpu.js [options]: CPU time per request, a measure a busy machine does
 * not move much (wall-clock req/s on a shared 2-core box moves by 2x).
 *
 * For each round, target and scenario: a fresh server on a fresh copy of the
 * seeded database, a warm-up, then a fixed number of requests (autocannon in this
 * process, 10 connections); the figure is the server's CPU time (user + system,
 * every thread, from /proc/<pid>/task/<tid>/schedstat, in ns) spent over the
 * measured requests, divided by them. Prints `cpu <provider> <target> <scenario>
 * <µs/request>` lines, then the median per target and scenario and the API/floor
 * ratio of the floor's CPU over the API's (comparable to `ratio-floor`).
 *
 * The API runs as in production, as run.ts starts it: its `start` script's
 * file, NODE_ENV=production, LOG_LEVEL=info to a file, METRICS_TOKEN set,
 * rate-limit counting on (a limit high enough never to refuse the run). The
 * load comes from autocannon in this process: a server's CPU time per request
 * does not depend on how fast the generator is, so this is a second opinion
 * on run.ts's wrk figures that another process's load moves much less.
 *
 * --issued: the API only, one process per round, an issued `psk_` key (made by
 * `keys create`) against a configured one: after a warm-up of each, PAIRS pairs of
 * SLICE requests alternate the two keys (configured first in even pairs, issued
 * first in odd ones), so both meet the same moments of the machine; prints
 * `cpu-issued <provider> <scenario> <x>`, the median over the pairs of the
 * configured key's CPU per request over the issued key's (comparable to
 * run.ts's `ratio-issued`: above 1, the issued key is cheaper). Options
 * --pairs=N (default 8) --slice=N (default 5000).
 *
 * Options: --targets=api,express,baseline --scenarios=getPet,... --requests=N
 * (default 20000) --warmup=N (default 3000) --rounds=N (default 3) --rows=N
 * (default 10000) --api-env=K=V[,K=V] (extra environment for the API, e.g.
 * METRICS_TOKEN= to price a feature) --postgres (PostgreSQL instead of SQLite) --cpu-prof (API
 * under node --cpu-prof, profiles in bench/results/cpu-<stamp>/)
 * Env: BENCH_API_MAIN (another build of the API), BENCH_PG_URL.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { migrateDatabase } from "@petstore/api/migrate";
import { API_ONLY_SCENARIOS, SCENARIOS, scenarioPath, type Scenario } from "./scenarios.js";
import { createIssuedKey } from "./issued-key.js";
import { seedPostgres, seedSqlite } from "./seed.js";
import { cpuNs, peakRssMb, productionApiCommand, startServer, stopServer, type RunningServer } from "./server-process.js";

const BENCH_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const API_ROOT = path.dirname(createRequire(import.meta.url).resolve("@petstore/api/package.json"));
const API_COMMAND = productionApiCommand(API_ROOT);
const PG_URL = process.env["BENCH_PG_URL"] ?? "postgresql://postgres@127.0.0.1:5432/petstore_bench";
const API_KEY = "bench-petstore-key-0123456789abcdefgh"; // production wants >= 32 characters
const SCRIPTS = {
  api: API_COMMAND.script,
  express: path.join(BENCH_ROOT, "dist", "express-floor-server.js"),
  baseline: path.join(BENCH_ROOT, "dist", "baseline-server.js"),
} as const;
type Target = keyof typeof SCRIPTS;

const argv = process.argv.slice(2);
const option = (name: string) => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const postgres = argv.includes("--postgres");
const cpuProf = argv.includes("--cpu-prof");
const issued = argv.includes("--issued");
const targets = issued ? (["api"] as Target[]) : ((option("targets") ?? "api,express").split(",") as Target[]);
const pairs = Number(option("pairs") ?? 8);
const slice = Number(option("slice") ?? 5_000);
// By default the scenarios every server serves; a name search only when asked for.
const scenarios = SCENARIOS.filter((s) => option("scenarios")?.split(",").includes(s) ?? !API_ONLY_SCENARIOS.has(s));
const requests = Number(option("requests") ?? 20_000);
const warmup = Number(option("warmup") ?? 3_000);
const rounds = Number(option("rounds") ?? 3);
const rows = Number(option("rows") ?? 10_000);
const apiEnv = Object.fromEntries(
  (option("api-env") ?? "")
    .split(",")
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
) as Record<string, string>;
const provider = postgres ? "postgresql" : "sqlite";

const work = mkdtempSync(path.join(tmpdir(), "petstore-cpu-"));
const profDir = path.join(BENCH_ROOT, "results", `cpu-${new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19)}`);
if (cpuProf) mkdirSync(profDir, { recursive: true });

async function start(target: Target, databaseUrl: string, name: string): Promise<RunningServer> {
  const env: Record<string, string> = { API_KEYS: API_KEY, DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: "10" };
  if (target === "api") {
    Object.assign(env, {
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      SEED: "false",
      METRICS_TOKEN: "bench-metrics-token-0123456789abcdef",
      RATE_LIMIT_PER_MIN: "100000000",
      AUTH_FAILURES_PER_MIN: "60",
      CHECKPOINT_DISABLE: "1",
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
      // No load balancer to drain for: stop at once on SIGTERM.
      SHUTDOWN_DRAIN_MS: "0",
      ...apiEnv,
    });
  }
  const nodeArgs = [
    ...(target === "api" ? API_COMMAND.nodeArgs : []),
    ...(cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`, `--cpu-prof-name=${name}.cpuprofile`] : []),
  ];
  return startServer(SCRIPTS[target], env, {
    nodeArgs,
    cwd: target === "api" ? API_COMMAND.cwd : work,
    // One file per server, deleted with the work folder: the figures need the writes, not the lines.
    logFile: path.join(work, `${name}.log`),
  });
}

let created = 0;
function load(url: string, scenario: Scenario, amount: number, apiKey = API_KEY): Promise<autocannon.Result> {
  const request: autocannon.Request =
    scenario === "getPet"
      ? { method: "GET", setupRequest: (req) => ({ ...req, path: `/v1/pets/${1 + Math.floor(Math.random() * rows)}` }) }
      : scenario === "createPet"
        ? {
            method: "POST",
            setupRequest: (req) => ({
              ...req,
              path: "/v1/pets",
              body: JSON.stringify({ name: `cpu ${++created}`, categoryId: 1 + (created % 10), status: "available" }),
            }),
          }
        : { method: "GET", path: scenarioPath(scenario) };
  return autocannon({
    url,
    connections: 10,
    amount,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    requests: [request],
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

let template = "";
if (postgres) {
  await migrateDatabase(PG_URL);
  await seedPostgres(PG_URL, rows);
} else {
  template = path.join(work, "template.db");
  await migrateDatabase(`file:${template}`);
  seedSqlite(template, rows);
}

/** The server's CPU µs per request over `amount` requests with `apiKey`; throws on any non-2xx or error. */
async function cpuPerRequest(server: RunningServer, target: Target, scenario: Scenario, amount: number, apiKey = API_KEY): Promise<number> {
  const before = cpuNs(server.child.pid!);
  const result = await load(server.url, scenario, amount, apiKey);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target} ${scenario}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return (cpuNs(server.child.pid!) - before) / 1000 / result.requests.total;
}

const issuedKey = issued ? createIssuedKey(API_ROOT, postgres ? PG_URL : `file:${template}`) : "";
const issuedRatios = new Map<Scenario, number[]>();

const results = new Map<string, number[]>();
const peaks = new Map<Target, number[]>();
try {
  for (let round = 0; round < rounds; round++) {
    // Alternate the order, so neither server always runs first.
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
      let databaseUrl = PG_URL;
      if (!postgres) {
        const file = path.join(work, `${target}.db`);
        for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
        copyFileSync(template, file);
        databaseUrl = `file:${file}`;
      } else {
        await seedPostgres(PG_URL, rows);
      }
      const server = await start(target, databaseUrl, `${target}-${round}`);
      const { url, child } = server;
      try {
        for (const scenario of scenarios) {
          await load(url, scenario, warmup);
          if (!issued) {
            const usPerRequest = await cpuPerRequest(server, target, scenario, requests);
            console.log(`cpu ${provider} ${target} ${scenario} ${usPerRequest.toFixed(1)}`);
            const key = `${target} ${scenario}`;
            results.set(key, [...(results.get(key) ?? []), usPerRequest]);
            continue;
          }
          await load(url, scenario, warmup, issuedKey);
          for (let pair = 0; pair < pairs; pair++) {
            const order = pair % 2 === 0 ? [API_KEY, issuedKey] : [issuedKey, API_KEY];
            const cpu = new Map<string, number>();
            for (const key of order) cpu.set(key, await cpuPerRequest(server, target, scenario, slice, key));
            const ratio = cpu.get(API_KEY)! / cpu.get(issuedKey)!;
            console.log(`cpu ${provider} api ${scenario} pair ${pair + 1}: configured ${cpu.get(API_KEY)!.toFixed(1)}, issued ${cpu.get(issuedKey)!.toFixed(1)} µs/request`);
            issuedRatios.set(scenario, [...(issuedRatios.get(scenario) ?? []), ratio]);
          }
        }
        peaks.set(target, [...(peaks.get(target) ?? []), peakRssMb(child.pid!)]);
      } finally {
        await stopServer(server);
      }
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (issued) {
  console.log(`\nconfigured ÷ issued CPU per request, median over ${rounds} × ${pairs} pairs of ${slice} requests (${provider}, ${rows} rows)`);
  for (const [scenario, ratios] of issuedRatios) console.log(`cpu-issued ${provider} ${scenario} ${median(ratios).toFixed(3)}`);
} else {
  console.log(`\nmedian CPU µs/request over ${rounds} rounds of ${requests} (${provider}, ${rows} rows)`);
  for (const scenario of scenarios) {
    const figures = targets.map((target) => median(results.get(`${target} ${scenario}`) ?? [NaN]));
    const ratio = targets.includes("express") && targets.includes("api")
      ? median(results.get(`express ${scenario}`)!) / median(results.get(`api ${scenario}`)!)
      : NaN;
    console.log(`${scenario.padEnd(38)} ${targets.map((t, i) => `${t} ${figures[i]!.toFixed(1)}`).join("  ")}  floor/api ${ratio.toFixed(2)}`);
  }
  for (const [target, values] of peaks) console.log(`peak RSS ${target} ${median(values).toFixed(0)} MB`);
  if (cpuProf) console.log(`profiles in ${profDir}`);
}
