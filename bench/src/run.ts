/**
 * corepack pnpm bench [--quick] [options]
 *
 * Seeds datasets in bulk, then for each database and dataset starts its
 * servers side by side, wrk (a native load generator, one thread pinned to
 * core 0) loading one of them at a time (each server pinned to core 1):
 *   api       the built API, started as its `start` script starts it, in production
 *             (logs at info to a file, metrics on, rate-limit counting on), with a
 *             configured key (API_KEYS). A second API process (`api-keyed`, the same
 *             build and settings, its own copy of the database) serves the key-sliced
 *             targets, so the api process meets the load each floor meets (targets.ts):
 *             as the target
 *             `api-issued`, with an issued `psk_` key made by the operator command
 *             alternating with the configured key every 100 ms (createPet 250 ms) within
 *             runs 6 times as long (--quick: twice; load.ts, keySliceMs): its req/s is the issued key's slices', and
 *             ratio-issued compares them with the configured key's slices of the same run
 *             (the median over the rounds); as the target `api-token`, with a `pst_` session token
 *             alternating with the issued key it was started with, key-sliced the same way, runs as
 *             long: a token is minted before each run (session-token.ts: POST /admin/v1/session/start
 *             with the issued key, then /admin/v1/session/token; it lasts 10 minutes, a run seconds),
 *             its req/s is the token's slices', and ratio-token compares them with the issued key's
 *             slices of the same run (the pairing api-issued has: both keys meet the same moments);
 *             and, as the target `api-webhooks` (createPet only),
 *             with three webhook endpoints (pet.created, at a local receiver) registered through
 *             POST /admin/v1/webhooks just before each of its runs and deleted just after: with
 *             api-webhooks among the targets the API runs with WEBHOOK_ALLOW_HTTP and
 *             WEBHOOK_ALLOW_PRIVATE true and its sender paused (WEBHOOK_POLL_MS 2e9 ms), so the
 *             outbox rows are the whole difference; in the rotation it sits on the API's other
 *             side from a lone floor, and outside the production floor when both floors run
 *             (api-webhooks, production, api, bare / bare, api, production, api-webhooks)
 *   production  the production floor (express-floor-server.ts; the target `express` before
 *             the bare floor ran beside it, and `--targets=express` still names it): a
 *             hand-written Express 4 app doing the API's work with production's duties (a pino
 *             line per request, security headers, X-Request-Id, per-key counting); on PostgreSQL
 *             it makes the API's Prisma calls, the Express + Prisma floor
 *   bare      the bare Express floor (bare-express-floor-server.ts): the same Express app, SQL,
 *             checks, bodies, status codes and contract headers, and none of those duties
 *   baseline  the node:http baseline (baseline-server.ts): the driver's limit
 *             (better-sqlite3; on PostgreSQL a `pg` Pool with the same SQL); also the
 *             proof that wrk is not the bottleneck (the `headroom` lines)
 * The scenarios (scenarios.ts): listPets, the filtered page, getPet, two name searches (the API's own),
 * createPet, and updatePet (the API's own, beyond the spec; its targets only): PATCH /v1/pets/{id} of a
 * seeded pet picked uniformly in 1..rows, a JSON Patch that tests its category (seeded, never changed) and
 * replaces its name with one unique in the run, so every answer is 200 whatever the concurrency. A build
 * that does not serve it (BENCH_API_MAIN before it) is found by a probe before any load (PATCH /v1/pets/1
 * with a lone `test`, which changes nothing, answered 404 or 405): that target is left out of updatePet,
 * "n/a" in the report and its `ratio-update` line, not a failure; every other scenario runs as before.
 * Each SQLite server gets its own fresh copy of the seeded file; on PostgreSQL
 * they share the one database (createPet's rows are deleted when the dataset is
 * done). The runs are interleaved, so that the machine's drift over minutes
 * falls on every server alike: per scenario, every target gets a warm-up, then
 * R rounds in each of which every target gets one measured run, the order
 * rotating from round to round, the API and each floor always back to back. A target's figure is the median of its rounds'
 * req/s (the mean of two), its p50/p99 those of the round with the median req/s
 * (of two, the slower). A ratio between two targets is paired: the median over
 * the rounds of the one's req/s over the other's in the same round (runs
 * seconds apart), so a slow minute weighs on both sides of each ratio. Peak RSS
 * is per server over all the dataset's scenarios, from the end of its first warm-up.
 *
 * Before and after, it times a fixed single-threaded task (host-speed.ts: 20,000
 * SHA-256 of 1 KiB, the fastest of 5), put in results.json (`hostSpeed`) and the
 * report's header, so figures of different days and hosts can be compared.
 *
 * Prints and writes a Markdown report to bench/results/, then machine-readable
 * lines (worst dataset unless said; a ratio line's median is followed by its rounds' range, `(min-max)`):
 *   ratio-floor <provider> <scenario> <x>     API req/s over the production floor's (goal: SQLite >= 0.95;
 *                                             PostgreSQL, the Express + Prisma floor, >= 0.85)
 *   ratio-bare <provider> <scenario> <x>      API req/s over the bare Express floor's (goal: SQLite >= 0.85;
 *                                             PostgreSQL information)
 *   ratio-baseline <provider> <scenario> <x>  API req/s over the node:http baseline's (information)
 *   headroom <provider> <scenario> <x>        baseline req/s over the API's: the generator's headroom (warns under 2)
 *   ratio-issued <provider> <scenario> <x>    issued-key API req/s over configured-key, both from the key-sliced
 *                                             api-issued runs (goal within 5 %; the dataset furthest from 1)
 *   ratio-token <provider> <scenario> <x>     session-token API req/s over the issued key's, both from the key-sliced
 *                                             api-token runs (goal within 5 %; the dataset furthest from 1)
 *   rss-floor <provider> <x>                  API peak RSS over the production floor's (goal <= 1.5)
 *   name-p99 <provider> rare|shared <x>       a name search's p99 over plain listPets' at the largest dataset,
 *                                             paired by round (the median of the rounds' ratios)
 *                                             (goal at 1M: rare <= 1.5, shared <= 3)
 *   cpu-floor <provider> <scenario> <x>       the production floor's server CPU µs per request over the API's (paired;
 *                                             the second opinion, little moved by other processes on the server's core)
 *   cpu-bare <provider> <scenario> <x>        the same for the bare Express floor
 *   ratio-webhooks <provider> createPet <x>   createPet req/s with three endpoints over with none, paired by
 *                                             round (goal >= 0.95; the worst dataset)
 *   ratio-update <provider> updatePet <x>     the API's updatePet req/s over its createPet req/s, paired by round
 *                                             (round n of each, a scenario apart; goal on SQLite >= 0.8; the worst
 *                                             dataset); `n/a (not served ...)` when the build does not serve updatePet
 *   inventory-ms <provider> <rows> <ms>       the API's time per getInventory answer: 1000 / its req/s, its core full
 *                                             (goal under 5 at 1M pets over 100 categories; seeded 1 + id % 100)
 *   generator-busy <provider> <x>             wrk's busiest run: CPU time over wall time on its core (under 1: it waited for the server)
 *   ratio <scenario> <x>, growth list p99 1M/10k <x>   as before
 *   export-10k <seconds>                      the web app's Export CSV of 10,000 pets in Chromium (goal <= 15)
 * Then, per database (its first dataset), the delivery throughput: an API of its own (not pinned), its
 * sender looking every 10 ms, one endpoint at a node:http receiver in this process answering 204,
 * --deliveries pets created (autocannon, 10 connections, in this process): deliveries per second from
 * the first create to the last receipt, and the receiver's count (must equal the pets). No goal: on
 * 2 cores the sender, the receiver and the client compete. A line of its own in the report.
 * On the same API, fair sending: 48 pets created one after another with one fast endpoint, then 48 with it
 * and a slow one (its receiver answers 200 after 9.5 s) beside it; the fast receiver's worst lag from a
 * create's answer to its receipt, alone and beside the slow one (goal: within 2 s),
 * `fair-sending-lag <provider> <s> (alone <s>; goal <= 2)`; a fast receiver that missed an event is a failure.
 * Exits 1 when the receiver missed an event, when any response (warm-ups included) had a status >= 400, errored or timed out,
 * or when the web step ran and failed (its figures are missing from the report).
 *
 * Options:
 *   --quick                 10k rows, SQLite only, 2 rounds of 2 s, 1 s warm-up (smoke check)
 *   --rounds=N              measured rounds per scenario (default 5; --quick 2)
 *   --issued-length=N       api-issued's and api-token's runs are N times --duration (default 6; --quick 2)
 *   --duration=S --warmup=S whole seconds of one target's measured run in a round / of its
 *                           warm-up per scenario (default 2 / 2; --quick 2 / 1)
 *   --connections=N         wrk connections (default 32, one thread)
 *   --datasets=10000,1000000
 *   --targets=api,api-issued,api-token,api-webhooks,production,bare,baseline,postgresql   which targets (and PostgreSQL) to run
 *                           (default all; `express` is read as `production`)
 *   --deliveries=N          pets created for the delivery throughput (default 2000; 0: neither it nor fair sending measured)
 *   --scenarios=getPet,listPets         a subset of the scenarios (names as in the table; e.g. createPet,updatePet)
 *   --no-postgres --no-web  skip those parts
 *   --cpu-prof              run every server under node --cpu-prof (one profile per server, database
 *                           and dataset, covering all its scenarios, in the results folder): the
 *                           API's beside its floors', load for load
 *   --api-env=K=V[,K=V]     extra environment for the API (e.g. LOG_LEVEL=warn to price per-request logs)
 * Env: BENCH_API_MAIN (another build of the API), BENCH_PG_URL, BENCH_PG_ADMIN_URL.
 *
 * The code, by concern: options.ts reads the command line; running.ts seeds the
 * databases, starts the servers (servers.ts, databases.ts), checks their answers
 * (answers.ts) and runs the rounds with wrk (load.ts); statistics.ts computes the
 * medians and paired ratios; report.ts renders the report. This file wires them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { runIfEntry } from "./entry.js";
import { log } from "./format.js";
import { measureHostSpeed } from "./host-speed.js";
import { ensureLoadGenerator } from "./load.js";
import { parseBenchOptions, type BenchOptions } from "./options.js";
import { renderReport } from "./report.js";
import type { BenchRecord } from "./results.js";
import { runBench } from "./running.js";
import { apiCommand, RESULTS, timeStamp } from "./servers.js";

/** The bench: reads the command line, runs, writes and prints the report; returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let options: BenchOptions;
  let wrk: string;
  try {
    options = parseBenchOptions(argv);
    apiCommand();
    wrk = ensureLoadGenerator(log);
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    return 2;
  }
  const stamp = timeStamp();
  const outDir = path.join(RESULTS, stamp);
  mkdirSync(outDir, { recursive: true });
  const work = mkdtempSync(path.join(tmpdir(), "petstore-bench-"));
  const started = Date.now();
  const loadAtStart = loadavg()[0]!;
  const speedBefore = measureHostSpeed();
  let record: BenchRecord;
  try {
    record = await runBench(options, { wrk, work, outDir });
    const hostSpeed = { before: speedBefore, after: measureHostSpeed() };
    // The figures first: a run of twenty minutes must not be lost to a fault in the report.
    const elapsedSeconds = Math.round((Date.now() - started) / 1000);
    const { results, logFigures, plans, web, deliveries, fairSending, unserved } = record;
    writeFileSync(
      path.join(outDir, "results.json"),
      JSON.stringify(
        { options, elapsedSeconds, hostSpeed, results, logFigures, plans, web, deliveries, fairSending, unserved },
        null,
        2,
      ),
    );
    const { markdown, warnings } = renderReport(record, options, {
      stamp,
      loadAtStart,
      loadAtEnd: loadavg()[0]!,
      hostSpeed,
    });
    for (const warning of warnings) log(warning);
    writeFileSync(path.join(outDir, "report.md"), markdown);
    writeFileSync(path.join(RESULTS, "latest.md"), markdown);
    console.log(markdown);
    log(`report: ${path.relative(process.cwd(), path.join(outDir, "report.md"))} (${elapsedSeconds} s)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return exitCode(record);
}

/** 1 when a response failed or the web step ran and failed (its figures are missing from the report), else 0. */
function exitCode({ failures, web }: BenchRecord): number {
  if (typeof web === "string") {
    // The figures are saved, but a full run without the export's figure has not measured what it reports on.
    console.error(`bench: FAILED: the web step was ${web}`);
  }
  if (failures > 0) {
    console.error(
      `bench: FAILED: ${failures} responses had a status >= 400, errored or timed out, or a delivery receiver missed events (see the FAILED lines above)`,
    );
  }
  return failures > 0 || typeof web === "string" ? 1 : 0;
}

await runIfEntry(import.meta.url, main);
