/**
 * corepack pnpm bench [--quick] [options]
 *
 * Seeds datasets in bulk, then for each one runs every scenario against the
 * built API (production mode) and against the baseline server, one server at a
 * time, with autocannon in its own process. Prints and writes a Markdown
 * report to bench/results/, then `ratio <scenario> <x>` lines and the
 * `growth list p99 1M/10k <x>` line. Exits 1 when any response was not 2xx.
 *
 * Options:
 *   --quick                 10k rows, SQLite only, short runs (smoke check, < 60 s)
 *   --duration=S --warmup=S measured / warm-up seconds per scenario (default 10 / 3)
 *   --connections=N         autocannon connections (default 10)
 *   --datasets=10000,1000000
 *   --targets=api,baseline,postgresql   which servers to run (default all available)
 *   --scenarios=getPet,listPets         a subset of the scenarios (names as in the table)
 *   --no-postgres --no-web  skip those parts
 *   --cpu-prof              run the API under node --cpu-prof (profiles in the results folder)
 *   --api-env=K=V[,K=V]     extra environment for the API (e.g. LOG_LEVEL=warn to price per-request logs)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { explainPostgres, explainSqlite, seedPostgres, seedSqlite } from "./seed.js";
import { SCENARIOS, type LoadJob, type LoadResult, type Scenario } from "./scenarios.js";
import { measureWeb, type WebResult } from "./web.js";
import { migrateDatabase } from "@petstore/api/migrate";

const BENCH_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const API_ROOT = path.dirname(createRequire(import.meta.url).resolve("@petstore/api/package.json"));
// BENCH_API_MAIN: another build of the API (e.g. an earlier commit's) for before/after figures.
const API_MAIN = process.env["BENCH_API_MAIN"] ?? path.join(API_ROOT, "dist", "main.js");
const RESULTS = path.join(BENCH_ROOT, "results");
const API_KEY = "bench-petstore-key-0123456789abcdefgh"; // production wants >= 32 characters
const PG_ADMIN_URL = process.env["BENCH_PG_ADMIN_URL"] ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const PG_BENCH_URL = process.env["BENCH_PG_URL"] ?? "postgresql://postgres@127.0.0.1:5432/petstore_bench";

// ---- options -------------------------------------------------------------

const argv = process.argv.slice(2).filter((arg) => arg !== "--");
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = flag("quick");
const options = {
  quick,
  durationSeconds: Number(option("duration") ?? (quick ? 3 : 10)),
  warmupSeconds: Number(option("warmup") ?? (quick ? 1 : 3)),
  connections: Number(option("connections") ?? 10),
  datasets: (option("datasets") ?? (quick ? "10000" : "10000,1000000")).split(",").map(Number),
  targets: (option("targets") ?? "api,baseline,postgresql").split(","),
  postgres: !quick && !flag("no-postgres"),
  web: !quick && !flag("no-web"),
  cpuProf: flag("cpu-prof"),
  scenarios: SCENARIOS.filter((scenario) => (option("scenarios")?.split(",") ?? SCENARIOS).includes(scenario)),
  apiEnv: Object.fromEntries(
    (option("api-env") ?? "")
      .split(",")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
  ) as Record<string, string>,
};
const unknown = argv.filter((arg) => !/^--(quick|no-postgres|no-web|cpu-prof|(duration|warmup|connections|datasets|targets|scenarios|api-env)=.+)$/.test(arg));
if (unknown.length > 0) {
  console.error(`bench: unknown option(s) ${unknown.join(" ")}; see bench/src/run.ts`);
  process.exit(2);
}

type Target = "api" | "baseline";
type Provider = "sqlite" | "postgresql";
interface Row {
  provider: Provider;
  rows: number;
  scenario: Scenario;
  target: Target;
  result: LoadResult;
  peakRssMb: number;
}

const label = (rows: number) => (rows >= 1_000_000 ? `${rows / 1_000_000}M` : `${rows / 1000}k`);
const log = (message: string) => console.error(`[bench] ${message}`);
const stamp = new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);
const outDir = path.join(RESULTS, stamp);
mkdirSync(outDir, { recursive: true });
const work = mkdtempSync(path.join(tmpdir(), "petstore-bench-"));

// ---- processes -----------------------------------------------------------

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

interface RunningServer {
  url: string;
  child: ChildProcess;
  stderr: () => string;
}

async function startServer(script: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    // Log lines go to /dev/null: formatting and writing them is still paid, as in production.
    stdio: ["ignore", "ignore", "pipe"],
    cwd: outDir,
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${path.basename(script)} exited ${child.exitCode}: ${stderr.slice(-2000)}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { url, child, stderr: () => stderr };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`${path.basename(script)} did not become ready: ${stderr.slice(-2000)}`);
}

async function stopServer(server: RunningServer): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  const timer = setTimeout(() => server.child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

function runLoad(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(BENCH_ROOT, "dist", "load.js"), JSON.stringify(job)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`load generator exited ${code}`));
      try {
        resolve(JSON.parse(out) as LoadResult);
      } catch {
        reject(new Error(`load generator printed no result: ${out}`));
      }
    });
  });
}

/** Peak RSS since the last reset: /proc's VmHWM; writing 5 to clear_refs resets it. */
function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    // not Linux or not allowed: the figure is then the peak since start
  }
}
function peakRssMb(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

// ---- one server, every scenario -------------------------------------------

/** The same requests must get the same answers from every server: body and Link. */
const referenceAnswers = new Map<string, string>();
async function checkSameAnswers(server: RunningServer, rows: number, who: string): Promise<void> {
  for (const pathAndQuery of ["/v1/pets", "/v1/pets?status=available&limit=100", "/v1/pets/1", `/v1/pets/${rows}`]) {
    const response = await fetch(`${server.url}${pathAndQuery}`, { headers: { authorization: `Bearer ${API_KEY}` } });
    const answer = `${response.status} ${response.headers.get("link") ?? ""} ${await response.text()}`;
    const key = `${rows} ${pathAndQuery}`;
    const reference = referenceAnswers.get(key);
    if (reference === undefined) referenceAnswers.set(key, answer);
    else if (reference !== answer) {
      throw new Error(`${who} answers ${pathAndQuery} differently:\n  ${answer.slice(0, 300)}\n  expected ${reference.slice(0, 300)}`);
    }
  }
}

const results: Row[] = [];
let failures = 0;

async function benchServer(server: RunningServer, provider: Provider, target: Target, rows: number): Promise<void> {
  await checkSameAnswers(server, rows, `${target} (${provider}, ${label(rows)})`);
  const pid = server.child.pid!;
  for (const scenario of options.scenarios) {
    const job: LoadJob = {
      url: server.url,
      apiKey: API_KEY,
      scenario,
      connections: options.connections,
      durationSeconds: options.warmupSeconds,
      maxId: rows,
    };
    const warm = await runLoad(job);
    resetPeakRss(pid);
    const result = await runLoad({ ...job, durationSeconds: options.durationSeconds });
    const bad = warm.non2xx + warm.errors + warm.timeouts + result.non2xx + result.errors + result.timeouts;
    if (bad > 0) {
      failures += bad;
      log(`  ${scenario}: ${bad} non-2xx/errors/timeouts, status codes ${JSON.stringify(result.statusCodes)}`);
    }
    const row: Row = { provider, rows, scenario, target, result, peakRssMb: peakRssMb(pid) };
    results.push(row);
    log(
      `  ${provider} ${label(rows)} ${target.padEnd(8)} ${scenario.padEnd(36)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms`,
    );
  }
}

function apiEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: "production",
    API_KEYS: API_KEY,
    DATABASE_URL: databaseUrl,
    SEED: "false",
    LOG_LEVEL: "info",
    RATE_LIMIT_PER_MIN: "0",
    AUTH_FAILURES_PER_MIN: "0",
    CHECKPOINT_DISABLE: "1",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    ...options.apiEnv,
    ...extra,
  };
}

const apiNodeArgs = (name: string) => (options.cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${outDir}`, `--cpu-prof-name=${name}.cpuprofile`] : []);

// ---- main ------------------------------------------------------------------

const plans: Record<string, string> = {};
const started = Date.now();
const loadAtStart = loadavg()[0]!;

try {
  // SQLite: one migrated template, seeded per dataset, copied fresh for each server.
  const migrated = path.join(work, "migrated.db");
  await migrateDatabase(`file:${migrated}`);
  for (const rows of options.datasets) {
    const template = path.join(work, `template-${rows}.db`);
    copyFileSync(migrated, template);
    const seedStart = Date.now();
    seedSqlite(template, rows);
    log(`sqlite: seeded ${label(rows)} pets in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
    plans[`sqlite ${label(rows)}`] = explainSqlite(template);
    for (const target of ["api", "baseline"] as const) {
      if (!options.targets.includes(target)) continue;
      const file = path.join(work, `${target}-${rows}.db`);
      copyFileSync(template, file);
      const server =
        target === "api"
          ? await startServer(API_MAIN, apiEnv(`file:${file}`), apiNodeArgs(`api-sqlite-${label(rows)}`))
          : await startServer(path.join(BENCH_ROOT, "dist", "baseline-server.js"), { API_KEYS: API_KEY, DB_FILE: file });
      try {
        await benchServer(server, "sqlite", target, rows);
      } finally {
        await stopServer(server);
        rmSync(file, { force: true });
      }
    }
    if (!(options.web && rows === options.datasets[0])) rmSync(template, { force: true });
  }

  // PostgreSQL: the API only (the baseline is the SQLite limit), beside SQLite.
  if (options.postgres && options.targets.includes("postgresql")) {
    if (await ensurePostgresDatabase()) {
      for (const rows of options.datasets) {
        await seedPostgresMigrated(rows);
        plans[`postgresql ${label(rows)}`] = await explainPostgres(PG_BENCH_URL);
        const server = await startServer(API_MAIN, apiEnv(PG_BENCH_URL), apiNodeArgs(`api-postgresql-${label(rows)}`));
        try {
          await benchServer(server, "postgresql", "api", rows);
        } finally {
          await stopServer(server);
        }
      }
    }
  }

  let web: WebResult | string | undefined;
  if (options.web) {
    const rows = options.datasets[0]!;
    const file = path.join(work, "web.db");
    copyFileSync(path.join(work, `template-${rows}.db`), file);
    try {
      web = await measureWeb({
        work,
        startApi: (corsOrigin) => startServer(API_MAIN, apiEnv(`file:${file}`, { CORS_ORIGIN: corsOrigin })),
        stopApi: stopServer,
        apiKey: API_KEY,
        log,
      });
    } catch (error) {
      web = `not measured: ${error instanceof Error ? error.message : String(error)}`;
      log(web);
    }
  }

  const report = renderReport(web);
  writeFileSync(path.join(outDir, "report.md"), report);
  writeFileSync(path.join(outDir, "results.json"), JSON.stringify({ options, results, plans, web }, null, 2));
  writeFileSync(path.join(RESULTS, "latest.md"), report);
  console.log(report);
  log(`report: ${path.relative(process.cwd(), path.join(outDir, "report.md"))} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failures > 0) {
  console.error(`bench: FAILED: ${failures} responses were not 2xx (or errored / timed out)`);
  process.exit(1);
}

// ---- PostgreSQL ------------------------------------------------------------

async function ensurePostgresDatabase(): Promise<boolean> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await admin.connect();
  } catch (error) {
    log(`postgresql: not reachable at ${PG_ADMIN_URL} (${(error as Error).message}); skipped`);
    return false;
  }
  try {
    const name = new URL(PG_BENCH_URL).pathname.slice(1);
    const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const migrateStart = Date.now();
  await migrateDatabase(PG_BENCH_URL);
  log(`postgresql: migrated ${PG_BENCH_URL} in ${((Date.now() - migrateStart) / 1000).toFixed(1)} s`);
  return true;
}

async function seedPostgresMigrated(rows: number): Promise<void> {
  const seedStart = Date.now();
  await seedPostgres(PG_BENCH_URL, rows);
  log(`postgresql: seeded ${label(rows)} pets in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
}

// ---- report ----------------------------------------------------------------

function find(provider: Provider, target: Target, rows: number, scenario: Scenario): Row | undefined {
  return results.find((r) => r.provider === provider && r.target === target && r.rows === rows && r.scenario === scenario);
}

function renderReport(web: WebResult | string | undefined): string {
  const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");
  const lines: string[] = [];
  lines.push(`# Benchmark ${stamp}${options.quick ? " (quick)" : ""}`, "");
  lines.push(
    `Node ${process.version}, ${options.connections} connections, ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per scenario; ` +
      `API: NODE_ENV=production, LOG_LEVEL=info to /dev/null, limits off. Baseline: node:http + prepared better-sqlite3 statements.`,
    `Machine: load average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end (other work on the machine skews every figure; compare rows of one run).`,
    "",
  );
  lines.push("| database | rows | scenario | server | req/s | p50 ms | p99 ms | errors | peak RSS MB | vs baseline |");
  lines.push("|---|---|---|---|---:|---:|---:|---:|---:|---:|");
  for (const row of results) {
    const base = find("sqlite", "baseline", row.rows, row.scenario);
    const ratio = base && !(row.provider === "sqlite" && row.target === "baseline") ? row.result.requestsPerSecond / base.result.requestsPerSecond : NaN;
    const errors = row.result.non2xx + row.result.errors + row.result.timeouts;
    lines.push(
      `| ${row.provider} | ${label(row.rows)} | \`${row.scenario}\` | ${row.target} | ${fmt(row.result.requestsPerSecond)} | ${row.result.p50Ms} | ${row.result.p99Ms} | ${errors} | ${fmt(row.peakRssMb)} | ${Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : ""} |`,
    );
  }
  lines.push("", "Filtered page (`status=available`, limit 100 + 1), query plan:", "");
  for (const [where, plan] of Object.entries(plans)) lines.push(`- ${where}:`, "", "  ```", ...plan.split("\n").map((l) => `  ${l}`), "  ```");
  if (web !== undefined) {
    lines.push("", "Web (apps/web production build, Chromium, API on the first dataset):", "");
    if (typeof web === "string") lines.push(`- ${web}`);
    else {
      lines.push(`- initial JavaScript: ${(web.initialJsGzipBytes / 1024).toFixed(1)} KB gzip (${web.scripts.join(", ")})`);
      lines.push(`- time to first table render: median ${web.medianMs.toFixed(0)} ms of ${web.samplesMs.length} (${web.samplesMs.map((ms) => ms.toFixed(0)).join(", ")} ms)`);
    }
  }
  lines.push("", "```");
  for (const scenario of SCENARIOS) {
    const ratios = options.datasets
      .map((rows) => {
        const api = find("sqlite", "api", rows, scenario);
        const base = find("sqlite", "baseline", rows, scenario);
        return api && base ? api.result.requestsPerSecond / base.result.requestsPerSecond : NaN;
      })
      .filter(Number.isFinite);
    // The worst dataset: the goal is every scenario at 0.7x or better.
    lines.push(`ratio ${scenario} ${ratios.length ? Math.min(...ratios).toFixed(2) : "n/a"}`);
  }
  const filtered = "listPets?status=available&limit=100" as const;
  const growth = (provider: Provider) => {
    const small = find(provider, "api", 10_000, filtered);
    const large = find(provider, "api", 1_000_000, filtered);
    return small && large ? (large.result.p99Ms / small.result.p99Ms).toFixed(2) : "n/a";
  };
  lines.push(`growth list p99 1M/10k ${growth("sqlite")}`);
  if (results.some((r) => r.provider === "postgresql")) lines.push(`growth list p99 1M/10k (postgresql) ${growth("postgresql")}`);
  lines.push("```", "");
  return lines.join("\n");
}
