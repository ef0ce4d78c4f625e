/**
 * The bench's report: Markdown tables of every figure, then the
 * machine-readable goal lines (listed at the top of run.ts) and the warnings.
 * Pure: it renders a BenchRecord; run.ts prints it and writes it out.
 */
import { figure, percent, rowsLabel, times } from "./format.js";
import { hostSpeedLine, type HostSpeed } from "./host-speed.js";
import { keySliceMs } from "./load.js";
import type { BenchOptions } from "./options.js";
import { findRow, peakOf, unservedOf, type BenchRecord, type Row, type Unserved } from "./results.js";
import { isWriteScenario, type Scenario } from "./scenarios.js";
import {
  chosenSpread,
  cpuUsPerRequest,
  failedResponses,
  furthestFromOne,
  inRunRatio,
  issuedOverConfigured,
  nameSearchP99Ratio,
  inRunSpread,
  pairedRatio,
  pairedSpread,
  roundRatios,
  updateOverCreate,
  webhooksOverNone,
  worstOf,
  type Figure,
  type Spread,
} from "./statistics.js";
import { SERVER_KINDS, type Provider, type Target } from "./targets.js";
import { WEBHOOK_ENDPOINTS, type DeliveryThroughput, type FairSending } from "./webhooks.js";

/** Under this, the baseline did not reach much more than the API: wrk, not the API, may be what was measured. */
const MIN_HEADROOM = 2;
/** A server core busier than this under wrk had the core to itself, near enough; under it, the report warns. */
const CONTENDED_BELOW = 0.8;
// The goal lines' ratios to three decimals: a goal's edge (0.85, 0.95) must not be reached by rounding
// (full run 15 printed an issued ÷ configured of 0.945 as 0.95).
const GOAL_DIGITS = 3;
/** The goal of `ratio-update` on SQLite: the API's updatePet at this share of its createPet's rate or better. */
export const UPDATE_OVER_CREATE_GOAL = 0.8;

/** The run's moment, the machine's load average (1 min) and its speed (host-speed.ts) at its start and end. */
export interface ReportContext {
  stamp: string;
  loadAtStart: number;
  loadAtEnd: number;
  hostSpeed: { before: HostSpeed; after: HostSpeed };
}

/** The report's Markdown, and its warnings (also in the Markdown) for the log. */
export function renderReport(
  record: BenchRecord,
  options: BenchOptions,
  context: ReportContext,
): { markdown: string; warnings: string[] } {
  const lines: string[] = [...method(options, context)];
  const { results } = record;
  const providers = (["sqlite", "postgresql"] as const).filter((provider) =>
    results.some((r) => r.provider === provider),
  );
  for (const provider of providers) {
    lines.push(
      ...providerTables(record, options, provider),
      ...webhookTable(results, options, provider),
      ...updateTable(record, options, provider),
    );
  }
  lines.push(...deliveriesSection(record.deliveries), ...fairSendingSection(record.fairSending));
  if (record.headerWarnings.length > 0) {
    lines.push(
      "Headers of the probe answers where the production floor differs from the API (a warning: the production floor sends the API's intended JSON header set):",
      "",
      ...record.headerWarnings.map((w) => `- ${w}`),
      "",
    );
  }
  lines.push(...everyRun(results), ...roundsTable(results, options, providers), ...plansAndWeb(record));
  const { goalLines, lowHeadroom } = goals(record, options, providers);
  lines.push(...goalLines);
  const warnings = warningsOf(results, lowHeadroom);
  for (const warning of warnings) lines.push(warning, "");
  return { markdown: lines.join("\n"), warnings };
}

const rps = (row: Row | undefined) => row?.result.requestsPerSecond ?? NaN;
const latency = (row: Row | undefined) =>
  row ? `${row.result.p50Ms.toFixed(2)} / ${row.result.p99Ms.toFixed(2)}` : "";
/** Of the datasets' spreads, the one with the lowest median: the worst, as a goal line reports it. */
const worstSpread = (spreads: Spread[]) => chosenSpread(spreads, (medians) => worstOf(medians, Math.min));
/** A goal line's figure: the median, and the range of the rounds' values beside it, `0.912 (0.871-0.955)`. */
const withRange = ({ median, min, max }: Spread, digits: number) =>
  `${median.toFixed(digits)} (${min.toFixed(digits)}-${max.toFixed(digits)})`;
/** A dataset's worst figure among `values`, as a goal line prints it; "n/a" when none is a number. */
const worst = (values: number[], pick: (...values: number[]) => number, digits = 2) =>
  figure(worstOf(values, pick), digits);

/** The title and how the figures were made. */
function method(options: BenchOptions, { stamp, loadAtStart, loadAtEnd, hostSpeed }: ReportContext): string[] {
  return [
    `# Benchmark ${stamp}${options.quick ? " (quick)" : ""}`,
    "",
    `Node ${process.version}; wrk, 1 thread, ${options.connections} connections, pinned to core 0; each server pinned to core 1 (database servers not pinned). ` +
      `Interleaved: per database and dataset all the servers run side by side, wrk loading one target at a time; per scenario each target gets a ${options.warmupSeconds} s warm-up, ` +
      `then ${options.rounds} round${options.rounds === 1 ? "" : "s"} in each of which every target gets one ${options.durationSeconds} s run, the order rotating from round to round, the API and each Express floor always back to back (the unit reversed from turn to turn, so which goes first alternates). ` +
      `A target's req/s is the median of its rounds' (of two, the mean); its p50/p99 are those of the round with the median req/s (of two, the slower); errors count the warm-up's and every round's. ` +
      `The ratios (÷ production floor, ÷ bare floor, vs baseline, headroom, and the lines at the end) are paired: the median over the rounds of the one's req/s over the other's in the same round; ` +
      `a ratio line at the end prints the range of the rounds' ratios (min-max) beside that median. ` +
      `**api**: the built API started as its \`start\` script does, NODE_ENV=production, LOG_LEVEL=info to a file, metrics on, rate-limit counting on (a budget never reached); ` +
      `**api (issued)**: a second API process (\`api-keyed\`: the same build and settings, its own copy of the database, so the api process meets the load each floor meets), sent an issued \`psk_\` key (scope write, made with \`keys create\`) and the configured key in turn, the key changing every ${keySliceMs("getPet")} ms (createPet: ${keySliceMs("createPet")} ms) of a run ${options.issuedLength} times as long as the others'; ` +
      `its req/s is the issued key's slices' (median of the rounds) and **issued ÷ configured** the issued key's requests per second of its slices over the configured key's in the same run, the median over the rounds ` +
      `(each slice counted once its first ${options.connections} requests, one per connection, have been sent, when the other key's requests have been answered; the first slice, after the idle hold, and the last, cut short, left out). ` +
      `**api (token)**: the api-keyed process, sent a \`pst_\` session token and the issued key it was started with in turn, key-sliced as api (issued) and as long; ` +
      `a token is minted before each run (\`POST /admin/v1/session/start\` with the issued key, then \`/admin/v1/session/token\`; it lasts 10 minutes), and **token ÷ issued** is the token's slices' rate over the issued key's in the same run, the median over the rounds. ` +
      `**api (webhooks)**: the api process, createPet only, with ${WEBHOOK_ENDPOINTS} webhook endpoints (subscribed to pet.created, at a local receiver) registered through \`POST /admin/v1/webhooks\` just before each of its runs and deleted just after; ` +
      `with it among the targets the API runs with WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE true and its sender paused for the whole run, so **webhooks ÷ none** (its req/s over the API's createPet, paired by round; in each round the two run back to back) prices the outbox rows written on the request path. ` +
      `**production**: the production floor, a hand-written Express 4 app doing the same work by hand (SQLite: the API's prepared statements; PostgreSQL: the API's Prisma calls, the Express + Prisma floor) with production's duties: ` +
      `one pino line per request to a file, the API's security headers and X-Request-Id, per-key request counting (target \`express\` before the bare floor ran beside it). ` +
      `**bare**: the bare Express floor, the same Express app, SQL, bearer check, parameter checks, bodies, status codes and contract headers, and nothing else (no log line, no security headers, no request id, no counting, no schema library). ` +
      `**baseline**: node:http + the driver (prepared better-sqlite3 statements; a \`pg\` Pool with the same SQL); also the generator's headroom: it must reach several times the API's rate. ` +
      `**updatePet** (the API's own, beyond the spec; its targets only): \`PATCH /v1/pets/{id}\` of a seeded pet picked at random, a JSON Patch testing its category (never changed) and replacing its name with one unique in the run, so each answer is 200; ` +
      `compared with the API's createPet (**update ÷ create**, paired by round: round n of each, a scenario apart; goal on SQLite ≥ ${UPDATE_OVER_CREATE_GOAL}). ` +
      `A target whose build does not serve it (a probe \`PATCH /v1/pets/1\` answered 404 or 405, e.g. BENCH_API_MAIN before it) is left out of it: n/a.`,
    `Machine: load average ${loadAtStart.toFixed(1)} at start, ${loadAtEnd.toFixed(1)} at end (other work on the machine skews every figure; compare rows of one run).`,
    hostSpeedLine(hostSpeed.before, hostSpeed.after),
    "",
  ];
}

/** Each dataset and scenario of one database that ran, with its rows by target (api-webhooks: createPet only). */
function* scenarioRows(results: readonly Row[], options: BenchOptions, provider: Provider) {
  for (const rows of options.datasets) {
    for (const scenario of options.scenarios) {
      const [api, issued, token, production, bare, base, webhooks] = (
        ["api", "api-issued", "api-token", "production", "bare", "baseline", "api-webhooks"] as const
      ).map((target) => findRow(results, provider, target, rows, scenario));
      if (api || production || bare || base)
        yield { rows, scenario, api, issued, token, production, bare, base, webhooks };
    }
  }
}

/** A probe's answer in one line of the report: its status and the start of its body. */
const unservedAnswer = (u: Unserved) => `answered ${u.answer.replace(/\s+/g, " ").slice(0, 120)}`;

/** One database's section: req/s and ratios, peak RSS, log volume. */
function providerTables(record: BenchRecord, options: BenchOptions, provider: Provider): string[] {
  const { results, logFigures } = record;
  const lines = [`## ${provider}`, ""];
  lines.push(
    "| rows | scenario | api req/s | api (issued) req/s | api (token) req/s | production floor req/s | bare floor req/s | baseline req/s | api ÷ production floor | api ÷ bare floor | issued ÷ configured | token ÷ issued | vs baseline | headroom | api p50/p99 ms | production p50/p99 ms | bare p50/p99 ms | baseline p50/p99 ms |",
  );
  lines.push("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const { rows, scenario, api, issued, token, production, bare, base } of scenarioRows(
    results,
    options,
    provider,
  )) {
    lines.push(
      `| ${rowsLabel(rows)} | \`${scenario}\` | ${figure(rps(api))} | ${figure(rps(issued))} | ${figure(rps(token))} | ${figure(rps(production))} | ${figure(rps(bare))} | ${figure(rps(base))} | ${times(pairedRatio(api, production))} | ${times(pairedRatio(api, bare))} | ${times(issuedOverConfigured(issued))} | ${times(inRunSpread(token).median)} | ${times(pairedRatio(api, base))} | ${times(1 / pairedRatio(api, base))} | ${latency(api)} | ${latency(production)} | ${latency(bare)} | ${latency(base)} |`,
    );
  }
  const unserved = record.unserved.filter((u) => u.provider === provider);
  if (unserved.length > 0) {
    lines.push("", "Not served by the build (probe answered 404 or 405; left out, n/a above):", "");
    for (const u of unserved) lines.push(`- ${rowsLabel(u.rows)} \`${u.scenario}\` ${u.target}: ${unservedAnswer(u)}`);
  }
  lines.push(
    "",
    "Peak RSS (MB, each server's peak over all the dataset's scenarios, from the end of its first warm-up):",
    "",
  );
  lines.push(
    "| rows | api | production floor | bare floor | baseline | api ÷ production floor | api ÷ bare floor |",
    "|---|---:|---:|---:|---:|---:|---:|",
  );
  for (const rows of options.datasets) {
    const [api = NaN, production = NaN, bare = NaN, base = NaN] = SERVER_KINDS.map((kind) =>
      peakOf(results, provider, kind, rows),
    );
    if ([api, production, bare, base].every((mb) => !Number.isFinite(mb))) continue;
    lines.push(
      `| ${rowsLabel(rows)} | ${figure(api)} | ${figure(production)} | ${figure(bare)} | ${figure(base)} | ${times(api / production)} | ${times(api / bare)} |`,
    );
  }
  lines.push(
    "",
    "Logs (each server's stdout, written to a file; one line per request expected from the API and the production floor, none from the bare floor):",
    "",
  );
  lines.push("| rows | server | requests sent | lines logged | MB logged |", "|---|---|---:|---:|---:|");
  for (const figures of logFigures.filter((f) => f.provider === provider)) {
    lines.push(
      `| ${rowsLabel(figures.rows)} | ${figures.kind} | ${figures.requests} | ${figures.lines} | ${(figures.bytes / 1e6).toFixed(1)} |`,
    );
  }
  lines.push("");
  return lines;
}

/** createPet with the webhook endpoints against createPet with none, per dataset (when api-webhooks ran). */
function webhookTable(results: readonly Row[], options: BenchOptions, provider: Provider): string[] {
  const rows = [...scenarioRows(results, options, provider)].filter(({ webhooks }) => webhooks);
  if (rows.length === 0) return [];
  const lines = [
    `createPet with ${WEBHOOK_ENDPOINTS} webhook endpoints registered, the sender paused (${provider}; goal: webhooks ÷ none ≥ 0.95):`,
    "",
    "| rows | scenario | none req/s | webhooks req/s | webhooks ÷ none | per round | none p50/p99 ms | webhooks p50/p99 ms |",
    "|---|---|---:|---:|---:|---|---:|---:|",
  ];
  for (const { rows: size, scenario, api, webhooks } of rows) {
    const perRound =
      api && webhooks
        ? roundRatios(webhooks, api)
            .map((ratio) => ratio.toFixed(3))
            .join(", ")
        : "";
    lines.push(
      `| ${rowsLabel(size)} | \`${scenario}\` | ${figure(rps(api))} | ${figure(rps(webhooks))} | ${figure(webhooksOverNone(webhooks, api), GOAL_DIGITS)} | ${perRound} | ${latency(api)} | ${latency(webhooks)} |`,
    );
  }
  lines.push("");
  return lines;
}

/**
 * The API's updatePet beside its createPet, per dataset (when updatePet was asked for): both rates, update ÷ create
 * paired by round, and "n/a" with the probe's answer when the build does not serve updatePet.
 */
function updateTable({ results, unserved }: BenchRecord, options: BenchOptions, provider: Provider): string[] {
  if (!options.scenarios.includes("updatePet")) return [];
  const datasets = options.datasets.filter(
    (rows) =>
      findRow(results, provider, "api", rows, "updatePet") ||
      findRow(results, provider, "api", rows, "createPet") ||
      unservedOf(unserved, provider, "api", rows, "updatePet"),
  );
  if (datasets.length === 0) return [];
  const lines = [
    `updatePet beside createPet, the API (${provider}; paired by round, round n of each a scenario apart${provider === "sqlite" ? `; goal: update ÷ create ≥ ${UPDATE_OVER_CREATE_GOAL}` : "; information"}):`,
    "",
    "| rows | createPet req/s | updatePet req/s | update ÷ create | per round | createPet p50/p99 ms | updatePet p50/p99 ms | updatePet errors |",
    "|---|---:|---:|---:|---|---:|---:|---:|",
  ];
  for (const rows of datasets) {
    const create = findRow(results, provider, "api", rows, "createPet");
    const update = findRow(results, provider, "api", rows, "updatePet");
    const notServed = unservedOf(unserved, provider, "api", rows, "updatePet");
    const perRound =
      create && update
        ? roundRatios(update, create)
            .map((ratio) => ratio.toFixed(3))
            .join(", ")
        : "";
    const updateRate = notServed ? `n/a (not served: ${notServed.answer.slice(0, 3)})` : figure(rps(update));
    lines.push(
      `| ${rowsLabel(rows)} | ${figure(rps(create))} | ${updateRate} | ${figure(updateOverCreate(update, create), GOAL_DIGITS)} | ${perRound} | ${latency(create)} | ${latency(update)} | ${update ? errorsOf(update) : ""} |`,
    );
  }
  lines.push("");
  return lines;
}

/** The delivery throughput, one line per database: information, no goal. */
function deliveriesSection(deliveries: readonly DeliveryThroughput[]): string[] {
  if (deliveries.length === 0) return [];
  const lines = [
    "## Webhook deliveries",
    "",
    "One endpoint at a node:http receiver (answers 204) in the bench's process, an API of its own (not pinned) whose sender looks for due deliveries every few ms, the pets created by autocannon (10 connections) in the bench's process; " +
      "deliveries per second from the first create to the last receipt. Information, not a goal: on 2 cores the sender, the receiver and the client compete.",
    "",
  ];
  for (const d of deliveries) lines.push(`- ${deliveryLine(d)}`);
  lines.push("");
  return lines;
}

/** Fair sending, one line per database. */
function fairSendingSection(fair: readonly FairSending[]): string[] {
  if (fair.length === 0) return [];
  const lines = [
    "## Webhook fair sending",
    "",
    `On the delivery throughput's API: ${fair[0]!.pets} pets created one after another with one fast endpoint (its receiver answers 200 at once), ` +
      `then as many with the fast one and a slow one (answers 200 after ${(fair[0]!.slowAnswerMs / 1000).toFixed(1)} s) beside it; ` +
      "the fast receiver's worst lag, from a create's answer to its event's receipt. Goal: within 2 s beside the slow one (issue 46).",
    "",
  ];
  for (const f of fair) {
    lines.push(
      `- ${f.provider}: ${f.aloneLagSeconds.toFixed(2)} s alone, ${f.besideSlowLagSeconds.toFixed(2)} s beside the slow receiver ` +
        `(${f.fastReceived} of ${f.pets} events received; the slow receiver held at most ${f.slowMostOpen} sends at once)`,
    );
  }
  lines.push("");
  return lines;
}

const deliveryLine = (d: DeliveryThroughput): string =>
  `${d.provider}: ${figure(d.deliveriesPerSecond)} deliveries/s (${d.distinct} of ${d.pets} events received, in ${d.received} requests; ` +
  `last receipt ${d.lastReceiptSeconds.toFixed(1)} s after the first create, the creates done at ${d.createSeconds.toFixed(1)} s; WEBHOOK_POLL_MS=${d.pollMs})`;

/** A row's failed responses: its warm-up's and every round's (status >= 400, socket errors, timeouts). */
const errorsOf = (row: Row) =>
  failedResponses(row.warmup) + row.rounds.reduce((total, run) => total + failedResponses(run.result), 0);

/** Every target's figures, one row each. */
function everyRun(results: readonly Row[]): string[] {
  const lines = [
    "## Every run",
    "",
    "One row per target and scenario, the figures as above (median of the rounds); core busy: CPU time over wall time of the server (every thread) and of wrk in the median round, sampled every 100 ms; server CPU µs/request: the server's busy share over its req/s in that round; errors: the warm-up's and every round's.",
    "",
  ];
  lines.push(
    "| database | rows | scenario | target | req/s | p50 ms | p99 ms | server core busy | wrk core busy | server CPU µs/request | errors | peak RSS MB |",
  );
  lines.push("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of results) {
    lines.push(
      `| ${row.provider} | ${rowsLabel(row.rows)} | \`${row.scenario}\` | ${row.target} | ${figure(row.result.requestsPerSecond)} | ${row.result.p50Ms.toFixed(2)} | ${row.result.p99Ms.toFixed(2)} | ${percent(row.result.serverBusy)} | ${percent(row.result.generatorBusy)} | ${figure(cpuUsPerRequest(row.result))} | ${errorsOf(row)} | ${figure(row.peakRssMb)} |`,
    );
  }
  return lines;
}

/** Each round's req/s, and the per-round ratios the paired medians come from. */
function roundsTable(results: readonly Row[], options: BenchOptions, providers: readonly Provider[]): string[] {
  const lines = [
    "",
    "## Rounds",
    "",
    "req/s of each round, in round order (results.json has each run's position in its round):",
    "",
  ];
  lines.push(
    "| database | rows | scenario | api | api (issued) | api (token) | production floor | bare floor | baseline | api ÷ production floor | api ÷ bare floor | issued ÷ configured (same run) | token ÷ issued (same run) |",
  );
  lines.push("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  const perRound = (row: Row | undefined) =>
    row?.rounds.map((run) => figure(run.result.requestsPerSecond)).join(", ") ?? "";
  const ratiosOfRounds = (api: Row | undefined, floor: Row | undefined) =>
    api && floor
      ? roundRatios(api, floor)
          .map((ratio) => ratio.toFixed(2))
          .join(", ")
      : "";
  for (const provider of providers) {
    for (const { rows, scenario, api, issued, token, production, bare, base } of scenarioRows(
      results,
      options,
      provider,
    )) {
      const inRunRatios = (sliced: Row | undefined) =>
        sliced?.rounds.map(({ result }) => inRunRatio(result).toFixed(2)).join(", ") ?? "";
      lines.push(
        `| ${provider} | ${rowsLabel(rows)} | \`${scenario}\` | ${perRound(api)} | ${perRound(issued)} | ${perRound(token)} | ${perRound(production)} | ${perRound(bare)} | ${perRound(base)} | ${ratiosOfRounds(api, production)} | ${ratiosOfRounds(api, bare)} | ${inRunRatios(issued)} | ${inRunRatios(token)} |`,
      );
    }
  }
  return lines;
}

/** The filtered page's query plans, and the web app's figures. */
function plansAndWeb({ plans, web }: BenchRecord): string[] {
  const lines = ["", "Filtered page (`status=available`, limit 100 + 1), query plan:", ""];
  for (const [where, plan] of Object.entries(plans))
    lines.push(`- ${where}:`, "", "  ```", ...plan.split("\n").map((l) => `  ${l}`), "  ```");
  if (web !== undefined) {
    lines.push("", "Web (apps/web production build, Chromium, API on the first dataset):", "");
    if (typeof web === "string") lines.push(`- ${web}`);
    else {
      lines.push(
        `- initial JavaScript: ${(web.initialJsGzipBytes / 1024).toFixed(1)} KB gzip (${web.scripts.join(", ")})`,
      );
      lines.push(
        `- time to first table render: median ${web.medianMs.toFixed(0)} ms of ${web.samplesMs.length} (${web.samplesMs.map((ms) => ms.toFixed(0)).join(", ")} ms)`,
      );
      lines.push(
        `- Export CSV of all ${web.exportedPets} pets: ${web.exportSeconds.toFixed(1)} s from the click to the saved file`,
      );
    }
  }
  return lines;
}

/** The machine-readable lines (the worst dataset unless said), in a code block; and where the headroom was low. */
function goals(
  { results, web, deliveries, fairSending, unserved }: BenchRecord,
  options: BenchOptions,
  providers: readonly Provider[],
): { goalLines: string[]; lowHeadroom: string[] } {
  const find = (provider: Provider, target: Target, rows: number, scenario: Scenario) =>
    findRow(results, provider, target, rows, scenario);
  const largest = Math.max(...options.datasets);
  const lines = [
    "",
    "Goals: `ratio-floor` (the API over the production floor) ≥ 0.95 on SQLite, ≥ 0.85 on PostgreSQL (there the production floor is the Express + Prisma floor); " +
      "`ratio-bare` (the API over the bare Express floor) ≥ 0.85 on SQLite, information on PostgreSQL; `ratio-baseline` (node:http + the driver) information; " +
      "`ratio-issued` (issued key ÷ configured key) and `ratio-token` (session token ÷ the issued key it was started with) within 5 % of 1; " +
      `\`ratio-update\` (the API's updatePet ÷ its createPet) ≥ ${UPDATE_OVER_CREATE_GOAL} on SQLite, information on PostgreSQL (n/a: the build does not serve updatePet); ` +
      "`inventory-ms` (the API's milliseconds per getInventory, 1000 ÷ its req/s on its one core) under 5 at 1M pets over 100 categories on both databases. " +
      "Each ratio line is the worst dataset's median over the rounds (ratio-issued: the dataset furthest from 1), the range of its rounds' ratios (min-max) beside it.",
    `(\`name-p99\` lines: the ${rowsLabel(largest)} dataset${largest === 1_000_000 ? "" : "; the goal is set at 1M"}.)`,
    "",
    "```",
  ];
  const lowHeadroom: string[] = [];
  for (const provider of providers) {
    const perDataset = (scenario: Scenario, a: Target, b: Target) =>
      options.datasets.map((rows) => pairedRatio(find(provider, a, rows, scenario), find(provider, b, rows, scenario)));
    const spreadsPerDataset = (scenario: Scenario, a: Target, b: Target, figureOf?: Figure) =>
      options.datasets.map((rows) =>
        pairedSpread(find(provider, a, rows, scenario), find(provider, b, rows, scenario), figureOf),
      );
    // The worst dataset: the goal is every scenario at its floor's ratio or better.
    for (const [name, a, b] of [
      ["ratio-floor", "api", "production"],
      ["ratio-bare", "api", "bare"],
      ["ratio-baseline", "api", "baseline"],
    ] as const) {
      for (const scenario of options.scenarios) {
        const spread = worstSpread(spreadsPerDataset(scenario, a, b));
        if (spread)
          lines.push(
            `${name} ${provider} ${scenario} ${withRange(spread, name === "ratio-baseline" ? 2 : GOAL_DIGITS)}`,
          );
      }
    }
    // Within 5 % either way: the dataset furthest from 1 (issued ÷ configured; token ÷ issued).
    for (const [name, target] of [
      ["ratio-issued", "api-issued"],
      ["ratio-token", "api-token"],
    ] as const) {
      for (const scenario of options.scenarios) {
        const spread = chosenSpread(
          options.datasets.map((rows) => inRunSpread(find(provider, target, rows, scenario))),
          furthestFromOne,
        );
        if (spread) lines.push(`${name} ${provider} ${scenario} ${withRange(spread, GOAL_DIGITS)}`);
      }
    }
    // createPet with three webhook endpoints (the sender paused) over createPet with none: the worst dataset, goal >= 0.95.
    const webhooks = worstSpread(spreadsPerDataset("createPet", "api-webhooks", "api"));
    if (webhooks) lines.push(`ratio-webhooks ${provider} createPet ${withRange(webhooks, GOAL_DIGITS)}`);
    // The API's updatePet over its createPet (the same process, round n of each): the worst dataset, goal on SQLite >= 0.8.
    if (options.scenarios.includes("updatePet") && options.scenarios.includes("createPet")) {
      const line = updateLine(
        provider,
        options.datasets,
        (rows, scenario) => find(provider, "api", rows, scenario),
        (rows) => unservedOf(unserved, provider, "api", rows, "updatePet"),
      );
      if (line) lines.push(line);
    }
    // A floor's CPU per request over the API's: what ratio-floor (ratio-bare) would be if each server had its core to itself.
    for (const [name, floor] of [
      ["cpu-floor", "production"],
      ["cpu-bare", "bare"],
    ] as const) {
      for (const scenario of options.scenarios) {
        const spread = worstSpread(spreadsPerDataset(scenario, floor, "api", cpuUsPerRequest));
        if (spread) lines.push(`${name} ${provider} ${scenario} ${withRange(spread, 2)}`);
      }
    }
    for (const scenario of options.scenarios) {
      const value = worst(
        perDataset(scenario, "api", "baseline").map((ratio) => 1 / ratio),
        Math.min,
      );
      if (value === "n/a") continue;
      lines.push(`headroom ${provider} ${scenario} ${value}`);
      if (Number(value) < MIN_HEADROOM) lowHeadroom.push(`${provider} ${scenario} ${value}`);
    }
    // wrk's busiest measured run on its core (the baseline's, usually): under 1, the generator waited for the servers.
    const generatorBusy = results
      .filter((r) => r.provider === provider)
      .flatMap((r) => r.rounds.map((run) => run.result.generatorBusy));
    lines.push(`generator-busy ${provider} ${worst(generatorBusy, Math.max)}`);
    // Against the production floor: the API's memory with production's duties on both sides.
    const rss = options.datasets.map(
      (rows) => peakOf(results, provider, "api", rows) / peakOf(results, provider, "production", rows),
    );
    lines.push(`rss-floor ${provider} ${worst(rss, Math.max)}`);
    // Name searches against the plain first page (goal at 1M pets: rare <= 1.5x, shared <= 3x its p99;
    // a later word's common start, the word search, as fast as a shared first word was before it).
    const plain = find(provider, "api", largest, "listPets");
    for (const [kind, scenario] of [
      ["rare", "listPets?name=rare"],
      ["shared", "listPets?name=shared"],
      ["word", "listPets?name=word"],
    ] as const) {
      const search = find(provider, "api", largest, scenario);
      if (plain && search) lines.push(`name-p99 ${provider} ${kind} ${nameSearchP99Ratio(search, plain).toFixed(2)}`);
    }
    // getInventory (goal at 1M pets over 100 categories: under 5 ms): the API's time per answer, its core
    // full under wrk's 32 connections, so 1000 / req/s; beside it, its p50 under that load (queueing included).
    for (const rows of options.datasets) {
      const inventory = find(provider, "api", rows, "getInventory");
      if (inventory) {
        lines.push(
          `inventory-ms ${provider} ${rowsLabel(rows)} ${(1000 / inventory.result.requestsPerSecond).toFixed(2)} (p50 under load ${inventory.result.p50Ms.toFixed(2)})`,
        );
      }
    }
  }
  for (const scenario of options.scenarios) {
    const ratios = options.datasets.map((rows) =>
      pairedRatio(find("sqlite", "api", rows, scenario), find("sqlite", "baseline", rows, scenario)),
    );
    if (ratios.some(Number.isFinite)) lines.push(`ratio ${scenario} ${worst(ratios, Math.min)}`);
  }
  const filtered = "listPets?status=available&limit=100" as const;
  const growth = (provider: Provider) => {
    const small = find(provider, "api", 10_000, filtered);
    const large = find(provider, "api", 1_000_000, filtered);
    return small && large ? (large.result.p99Ms / small.result.p99Ms).toFixed(2) : "n/a";
  };
  lines.push(`growth list p99 1M/10k ${growth("sqlite")}`);
  if (results.some((r) => r.provider === "postgresql"))
    lines.push(`growth list p99 1M/10k (postgresql) ${growth("postgresql")}`);
  if (web !== undefined && typeof web !== "string")
    lines.push(`export-${rowsLabel(web.exportedPets)} ${web.exportSeconds.toFixed(1)}`);
  // Information: no goal.
  for (const d of deliveries)
    lines.push(
      `deliveries-per-second ${d.provider} ${figure(d.deliveriesPerSecond)} (received ${d.distinct} of ${d.pets})`,
    );
  for (const f of fairSending)
    lines.push(
      `fair-sending-lag ${f.provider} ${f.besideSlowLagSeconds.toFixed(2)} (alone ${f.aloneLagSeconds.toFixed(2)}; goal <= 2)`,
    );
  lines.push("```", "");
  return { goalLines: lines, lowHeadroom };
}

/**
 * `ratio-update <provider> updatePet <median> (<min>-<max>)`: the worst dataset's update ÷ create; `n/a (...)` when
 * the API's build serves updatePet on no dataset (its probe's answer beside it); undefined when neither ran.
 */
export function updateLine(
  provider: Provider,
  datasets: readonly number[],
  apiRow: (rows: number, scenario: Scenario) => Row | undefined,
  notServed: (rows: number) => Unserved | undefined,
): string | undefined {
  const spread = worstSpread(
    datasets.map((rows) => pairedSpread(apiRow(rows, "updatePet"), apiRow(rows, "createPet"))),
  );
  if (spread) return `ratio-update ${provider} updatePet ${withRange(spread, GOAL_DIGITS)}`;
  const unserved = datasets.map(notServed).find((u) => u !== undefined);
  if (unserved) return `ratio-update ${provider} updatePet n/a (not served by this build: ${unservedAnswer(unserved)})`;
  return undefined;
}

/** What makes the figures doubtful: a busy server core, or too little headroom. */
function warningsOf(results: readonly Row[], lowHeadroom: readonly string[]): string[] {
  const warnings: string[] = [];
  // A measured SQLite read whose server had its core less than 80 % of the time: something else ran on core 1.
  // Only SQLite: the database is in the server's process, so its core is full unless something took it.
  // A PostgreSQL server waits for PostgreSQL (not pinned): its core idles by design, most of all the thin baseline's.
  // (A write's servers, createPet's and updatePet's, wait for the fsync: their cores are never full.)
  const runs = results
    .filter((r) => r.provider === "sqlite" && !isWriteScenario(r.scenario))
    .flatMap((r) => r.rounds.map((run) => run.result));
  const contended = runs.filter((result) => result.serverBusy < CONTENDED_BELOW);
  if (contended.length > 0) {
    warnings.push(
      `WARNING: in ${contended.length} of ${runs.length} measured SQLite reads the server's core was under ${CONTENDED_BELOW * 100} % busy while wrk waited: other processes ran on core 1 (a shared machine, or another bench); req/s and its ratios are unreliable there, cpu-floor less so.`,
    );
  }
  if (lowHeadroom.length > 0) {
    const generatorBusy = worst(
      results.flatMap((r) => r.rounds.map((run) => run.result.generatorBusy)),
      Math.max,
    );
    warnings.push(
      `WARNING: headroom under ${MIN_HEADROOM} (${lowHeadroom.join("; ")}): the baseline did not reach ${MIN_HEADROOM}× the API's rate there. ` +
        `wrk's core was at most ${generatorBusy} busy: under 1, wrk waited for the server, and the limit is the baseline's own work ` +
        `(createPet: the baseline commits each create alone, an fsync each, where the API commits a turn's creates together) ` +
        `or other processes on the servers' core (see "server core busy" under "Every run").`,
    );
  }
  return warnings;
}
