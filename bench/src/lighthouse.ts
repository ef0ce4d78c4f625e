/**
 * Lighthouse (issue 52, "A fast first load"): the npm package on Debian's Chromium against the production
 * build, the admin app served by the built API at its own origin (as web.ts serves it), on a fresh SQLite
 * database of `--pets` pets.
 *
 *   corepack pnpm --filter @petstore/bench lighthouse [-- --preset=mobile|desktop|both] [--runs=5] [--pets=100]
 *     [--port=3300] [--web-dist=<dir>] [--chrome=/usr/bin/chromium]
 *
 * Each page (`/sign-in` signed out; `/pets` signed in: a session started with the key, its cookies put in
 * the browser before Lighthouse opens the page) is measured `--runs` times per preset (Lighthouse's
 * default mobile preset, simulated slow 4G and a 4x slower CPU; its desktop preset), each run in a fresh
 * Chromium, the pages alternating. Printed (and written with every run's report to bench/results/): the
 * median of each figure over the runs, taken figure by figure; the audits that failed in any run with
 * their savings and the items they name; and the machine (CPU, cores, load average, Lighthouse's
 * benchmark index), since the scores move with the machine's load.
 *
 * Without --web-dist the app is built first into a folder of its own, from this working tree's sources
 * (web.ts, buildWebApp); apps/web/dist is left alone.
 * Targets (issue 52): performance >= 95 on both pages, accessibility 100, best practices 100, CLS < 0.05.
 */
import { SIGNED_IN_COOKIE_NAME } from "@petstore/contract";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { runIfEntry } from "./entry.js";
import { log } from "./format.js";
import { seedSqlite } from "./seed.js";
import { stopServer } from "./server-process.js";
import { API_KEY, apiCommand, BENCH_ROOT, migrateForBuild, RESULTS, startBenchServer, timeStamp } from "./servers.js";
import { startBrowserSession } from "./session-token.js";
import { medianOf } from "./statistics.js";
import { buildWebApp } from "./web.js";

export const PRESETS = ["mobile", "desktop"] as const;
export type Preset = (typeof PRESETS)[number];

export interface LighthouseOptions {
  presets: Preset[];
  runs: number;
  pets: number;
  /** The API's port (its own: 3000, 5173, 3100 and 3101 are other work's). */
  port: number;
  /** An admin app build to serve; unset: build one from the sources. */
  webDist?: string;
  chromePath: string;
}

export const DEFAULT_OPTIONS: LighthouseOptions = {
  presets: [...PRESETS],
  runs: 5,
  pets: 100,
  port: 3300,
  chromePath: "/usr/bin/chromium",
};

/** `--preset=mobile|desktop|both`, `--runs=N`, `--pets=N`, `--port=N`, `--web-dist=DIR`, `--chrome=PATH`. */
export function parseLighthouseOptions(argv: readonly string[]): LighthouseOptions {
  const options: LighthouseOptions = { ...DEFAULT_OPTIONS, presets: [...DEFAULT_OPTIONS.presets] };
  const whole = (name: string, text: string, min: number): number => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min)
      throw new Error(`--${name} must be a whole number >= ${min}, not ${JSON.stringify(text)}`);
    return value;
  };
  for (const arg of argv) {
    if (arg === "--") continue;
    const match = /^--([a-z-]+)=(.*)$/.exec(arg);
    if (!match)
      throw new Error(
        `unknown argument ${JSON.stringify(arg)} (options: --preset= --runs= --pets= --port= --web-dist= --chrome=)`,
      );
    const [, name, value] = match as unknown as [string, string, string];
    switch (name) {
      case "preset":
        if (value === "both") options.presets = [...PRESETS];
        else if ((PRESETS as readonly string[]).includes(value)) options.presets = [value as Preset];
        else throw new Error(`--preset must be mobile, desktop or both, not ${JSON.stringify(value)}`);
        break;
      case "runs":
        options.runs = whole(name, value, 1);
        break;
      case "pets":
        options.pets = whole(name, value, 0);
        break;
      case "port":
        options.port = whole(name, value, 1);
        break;
      case "web-dist":
        options.webDist = path.resolve(value);
        break;
      case "chrome":
        options.chromePath = value;
        break;
      default:
        throw new Error(`unknown option --${name}`);
    }
  }
  return options;
}

/** The part of a Lighthouse result (LH.Result) read here. */
export interface LhrAudit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  numericValue?: number;
  displayValue?: string;
  metricSavings?: Record<string, number | undefined>;
  details?: { type?: string; overallSavingsMs?: number; overallSavingsBytes?: number; items?: unknown[] };
}
export interface Lhr {
  finalDisplayedUrl: string;
  lighthouseVersion: string;
  environment: { benchmarkIndex: number; hostUserAgent: string };
  runtimeError?: { code: string; message: string };
  runWarnings: string[];
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; group?: string }> } | undefined>;
  audits: Record<string, LhrAudit | undefined>;
}

/** One run's figures: scores 0-100, times in ms. */
export interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  benchmarkIndex: number;
}

const score = (lhr: Lhr, category: string): number => {
  const value = lhr.categories[category]?.score;
  return value === null || value === undefined ? NaN : Math.round(value * 100);
};
const numeric = (lhr: Lhr, audit: string): number => lhr.audits[audit]?.numericValue ?? NaN;

export function figuresOf(lhr: Lhr): Figures {
  return {
    performance: score(lhr, "performance"),
    accessibility: score(lhr, "accessibility"),
    bestPractices: score(lhr, "best-practices"),
    seo: score(lhr, "seo"),
    fcpMs: numeric(lhr, "first-contentful-paint"),
    lcpMs: numeric(lhr, "largest-contentful-paint"),
    tbtMs: numeric(lhr, "total-blocking-time"),
    cls: numeric(lhr, "cumulative-layout-shift"),
    speedIndexMs: numeric(lhr, "speed-index"),
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

/** The median of each figure over the runs, figure by figure (of an even number, the mean of the middle two). */
export function medianFigures(runs: readonly Figures[]): Figures {
  const of = (key: keyof Figures) => medianOf(runs.map((run) => run[key]));
  return {
    performance: of("performance"),
    accessibility: of("accessibility"),
    bestPractices: of("bestPractices"),
    seo: of("seo"),
    fcpMs: of("fcpMs"),
    lcpMs: of("lcpMs"),
    tbtMs: of("tbtMs"),
    cls: of("cls"),
    speedIndexMs: of("speedIndexMs"),
    benchmarkIndex: of("benchmarkIndex"),
  };
}

/** Issue 52's targets; each missed one as a sentence. */
export function missedTargets(median: Figures): string[] {
  const missed: string[] = [];
  if (!(median.performance >= 95)) missed.push(`performance ${median.performance} < 95`);
  if (!(median.accessibility >= 100)) missed.push(`accessibility ${median.accessibility} < 100`);
  if (!(median.bestPractices >= 100)) missed.push(`best practices ${median.bestPractices} < 100`);
  if (!(median.cls < 0.05)) missed.push(`CLS ${median.cls.toFixed(3)} >= 0.05`);
  return missed;
}

/** An audit that failed in at least one run of a page. */
export interface FailingAudit {
  id: string;
  title: string;
  /** The categories that list it (performance, accessibility, best-practices, seo). */
  categories: string[];
  failedRuns: number;
  runs: number;
  /** The medians over the runs where it failed. */
  score: number;
  savingsMs: number;
  savingsBytes: number;
  /** Its estimated savings per metric (LCP, FCP, TBT, CLS), medians over the failed runs; absent ones left out. */
  metricSavings: Record<string, number>;
  displayValue?: string;
  /** Up to `ITEMS` of its items (the median-savings run's), one line each. */
  items: string[];
}

const ITEMS = 8;
/** Modes with a pass mark; informative, manual and not-applicable audits never fail. */
const SCORED = new Set(["binary", "numeric", "metricSavings"]);

/**
 * Audits of the scored categories that failed (score under 0.9, Lighthouse's pass mark) in any of `lhrs`,
 * the metric audits left out (the figures show them); most often failed first, then the largest savings.
 */
export function failingAudits(lhrs: readonly Lhr[]): FailingAudit[] {
  const categoriesOf = new Map<string, string[]>();
  for (const lhr of lhrs) {
    for (const [category, entry] of Object.entries(lhr.categories)) {
      for (const ref of entry?.auditRefs ?? []) {
        if (ref.group === "metrics") continue;
        const listed = categoriesOf.get(ref.id) ?? [];
        if (!listed.includes(category)) listed.push(category);
        categoriesOf.set(ref.id, listed);
      }
    }
  }
  const failed = new Map<string, LhrAudit[]>();
  for (const lhr of lhrs) {
    for (const id of categoriesOf.keys()) {
      const audit = lhr.audits[id];
      if (!audit || !SCORED.has(audit.scoreDisplayMode) || audit.score === null || audit.score >= 0.9) continue;
      failed.set(id, [...(failed.get(id) ?? []), audit]);
    }
  }
  const result = [...failed.entries()].map(([id, audits]): FailingAudit => {
    const savingsMs = medianOf(audits.map((audit) => audit.details?.overallSavingsMs ?? NaN));
    const middle = [...audits].sort((a, b) => (a.details?.overallSavingsMs ?? 0) - (b.details?.overallSavingsMs ?? 0))[
      Math.floor(audits.length / 2)
    ]!;
    const metrics = [...new Set(audits.flatMap((audit) => Object.keys(audit.metricSavings ?? {})))];
    const metricSavings = Object.fromEntries(
      metrics
        .map((metric) => [metric, medianOf(audits.map((audit) => audit.metricSavings?.[metric] ?? NaN))] as const)
        .filter(([, value]) => Number.isFinite(value) && value > 0),
    );
    return {
      id,
      title: middle.title,
      categories: categoriesOf.get(id) ?? [],
      failedRuns: audits.length,
      runs: lhrs.length,
      score: medianOf(audits.map((audit) => audit.score ?? NaN)),
      savingsMs,
      savingsBytes: medianOf(audits.map((audit) => audit.details?.overallSavingsBytes ?? NaN)),
      metricSavings,
      ...(middle.displayValue ? { displayValue: middle.displayValue } : {}),
      items: (middle.details?.items ?? []).slice(0, ITEMS).map(itemLine),
    };
  });
  return result.sort(
    (a, b) =>
      b.failedRuns - a.failedRuns ||
      (Number.isFinite(b.savingsMs) ? b.savingsMs : 0) - (Number.isFinite(a.savingsMs) ? a.savingsMs : 0),
  );
}

/** One item of an audit's table as a line: what it names (url, node, source) and its numbers. */
export function itemLine(item: unknown): string {
  if (typeof item !== "object" || item === null) return String(item);
  const record = item as Record<string, unknown>;
  if (record["type"] === "list-section") return sectionLine(record);
  const node = record["node"] as { snippet?: string; selector?: string } | undefined;
  const source = record["source"] as { url?: string; line?: number } | string | undefined;
  const what =
    (typeof record["url"] === "string" && record["url"]) ||
    // A module of a script whose source map Lighthouse read (unused-javascript's sub-items).
    (typeof source === "string" && source.replace(/^.*node_modules\//, "")) ||
    (typeof source === "object" && source.url ? `${source.url}:${source.line ?? "?"}` : "") ||
    node?.snippet ||
    (typeof record["description"] === "string" && record["description"]) ||
    (typeof record["label"] === "string" && record["label"]) ||
    (typeof record["groupLabel"] === "string" && record["groupLabel"]) ||
    "";
  const numbers: string[] = [];
  const add = (key: string, unit: string, scale = 1, digits = 0) => {
    const value = record[key];
    if (typeof value === "number" && Number.isFinite(value))
      numbers.push(`${key} ${(value / scale).toFixed(digits)}${unit}`);
  };
  add("totalBytes", " KiB", 1024, 1);
  add("transferSize", " KiB", 1024, 1);
  add("wastedBytes", " KiB", 1024, 1);
  add("wastedPercent", " %");
  add("wastedMs", " ms");
  add("sourceBytes", " KiB", 1024, 1);
  add("sourceWastedBytes", " KiB", 1024, 1);
  add("duration", " ms");
  add("score", "", 1, 4);
  const sub = record["subItems"] as { items?: unknown[] } | undefined;
  const subLines = (sub?.items ?? []).slice(0, 3).map((subItem) => itemLine(subItem));
  const line = [what.replace(/\s+/g, " ").slice(0, 160), numbers.join(", ")].filter(Boolean).join(": ");
  return subLines.length ? `${line} [${subLines.join("; ")}]` : line;
}

/** An insight's list section: its title and its value (a text, or a network tree's longest chain). */
function sectionLine(section: Record<string, unknown>): string {
  const value = section["value"] as
    | { type?: string; value?: unknown; chains?: Record<string, Chain>; longestChain?: { duration?: number } }
    | undefined;
  const title = typeof section["title"] === "string" ? `${section["title"]}: ` : "";
  if (value?.type === "network-tree") {
    const longest: string[] = [];
    let chains = value.chains;
    while (chains && Object.keys(chains).length > 0) {
      const next: Chain = Object.values(chains).find((chain) => chain.isLongest) ?? Object.values(chains)[0]!;
      longest.push(
        `${next.url} (${fixed(next.navStartToEndTime ?? NaN)} ms, ${fixed((next.transferSize ?? NaN) / 1024, 1)} KiB)`,
      );
      chains = next.children;
    }
    return `${title}longest chain ${fixed(value.longestChain?.duration ?? NaN)} ms: ${longest.join(" -> ")}`;
  }
  return `${title}${typeof value?.value === "string" ? value.value : JSON.stringify(value?.value ?? "").slice(0, 160)}`;
}
interface Chain {
  url: string;
  navStartToEndTime?: number;
  transferSize?: number;
  isLongest?: boolean;
  children?: Record<string, Chain>;
}

export interface PageResult {
  preset: Preset;
  page: string;
  runs: Figures[];
  median: Figures;
  failing: FailingAudit[];
}

function fixed(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

/** The figures as a Markdown table: one row per preset and page, medians. */
export function figuresTable(results: readonly PageResult[]): string {
  const rows = results.map(({ preset, page, runs, median }) =>
    [
      preset,
      page,
      `${fixed(median.performance)} (${runs.map((run) => fixed(run.performance)).join(", ")})`,
      fixed(median.accessibility),
      fixed(median.bestPractices),
      fixed(median.seo),
      fixed(median.fcpMs),
      fixed(median.lcpMs),
      fixed(median.tbtMs),
      fixed(median.cls, 3),
      fixed(median.speedIndexMs),
    ].join(" | "),
  );
  return [
    "| preset | page | performance (runs) | accessibility | best practices | SEO | FCP ms | LCP ms | TBT ms | CLS | Speed Index ms |",
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}

/** The failing audits of each page, with their savings and items. */
export function auditsSection(results: readonly PageResult[]): string {
  const lines: string[] = [];
  for (const { preset, page, failing } of results) {
    lines.push(`### ${preset} ${page}`, "");
    if (failing.length === 0) lines.push("No audit failed.", "");
    for (const audit of failing) {
      const savings = [
        Number.isFinite(audit.savingsMs) ? `${audit.savingsMs.toFixed(0)} ms` : "",
        Number.isFinite(audit.savingsBytes) ? `${(audit.savingsBytes / 1024).toFixed(1)} KiB` : "",
        ...Object.entries(audit.metricSavings).map(
          ([metric, value]) => `${metric} ${metric === "CLS" ? value.toFixed(3) : value.toFixed(0)}`,
        ),
      ].filter(Boolean);
      lines.push(
        `- \`${audit.id}\` (${audit.categories.join(", ")}): ${audit.title}; failed ${audit.failedRuns}/${audit.runs} runs, score ${fixed(audit.score, 2)}` +
          `${audit.displayValue ? `, ${audit.displayValue}` : ""}${savings.length ? `; savings ${savings.join(", ")}` : ""}`,
      );
      for (const item of audit.items) lines.push(`  - ${item}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

/** The machine, as the report records it: CPU model and cores, memory, load average. */
export function machineLine(load = os.loadavg()): string {
  const cpus = os.cpus();
  return (
    `${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
    `load average ${load.map((value) => value.toFixed(2)).join(" / ")} (1 / 5 / 15 min)`
  );
}

interface RunOne {
  (url: string, preset: Preset, cookie: string | undefined): Promise<Lhr>;
}

/** What to end should the run be interrupted (Ctrl-C, SIGTERM): the Chromium of the moment, the API, the work folder. */
const running = new Set<() => void>();
function endOnSignals(): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      for (const end of running) end();
      process.exit(130);
    });
  }
}

/**
 * Puts a session in the browser as a sign-in leaves it: the HttpOnly session cookie (`name=value`, from
 * `startBrowserSession`) and the readable `petstore-signed-in` beside it, which the app reads before it
 * asks for a token. Lighthouse's `extraHeaders` would reach the requests but not `document.cookie`.
 */
async function signInBrowser(port: number, pageUrl: string, sessionCookie: string): Promise<void> {
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` });
  try {
    const at = sessionCookie.indexOf("=");
    const common = { domain: new URL(pageUrl).hostname, path: "/", secure: true, sameSite: "Strict" } as const;
    await browser.setCookie(
      { ...common, name: sessionCookie.slice(0, at), value: sessionCookie.slice(at + 1), httpOnly: true },
      { ...common, name: SIGNED_IN_COOKIE_NAME, value: "1", httpOnly: false },
    );
  } finally {
    await browser.disconnect();
  }
}

/** Lighthouse once, in a Chromium of its own (cold cache). */
function lighthouseRunner(chromePath: string): RunOne {
  return async (url, preset, cookie) => {
    const [{ default: lighthouse, desktopConfig }, { launch }] = await Promise.all([
      import("lighthouse"),
      import("chrome-launcher"),
    ]);
    const chrome = await launch({
      chromePath,
      chromeFlags: ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"],
      logLevel: "silent",
    });
    const end = () => chrome.kill();
    running.add(end);
    try {
      if (cookie) await signInBrowser(chrome.port, url, cookie);
      const result = await lighthouse(
        url,
        {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          // The signed-in app keeps its live event stream open, so the network is never quiet and Lighthouse
          // would wait its default 45 s for the load to end (the page itself is loaded within a second or two).
          maxWaitForLoad: 15_000,
          onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
          // The cookies are in the browser's jar (signInBrowser): a fresh profile per run is cold anyway.
          ...(cookie ? { disableStorageReset: true } : {}),
        },
        preset === "desktop" ? desktopConfig : undefined,
      );
      if (!result) throw new Error(`lighthouse returned nothing for ${url}`);
      return result.lhr as unknown as Lhr;
    } finally {
      running.delete(end);
      chrome.kill();
    }
  };
}

/** The commit measured, and how many of apps/web's files differ from it (a build of the working tree includes them). */
function sourceLine(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: BENCH_ROOT, stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim();
    const changed = git("status", "--porcelain", "--", "../apps/web").split("\n").filter(Boolean).length;
    return `commit ${git("rev-parse", "--short", "HEAD")}${changed ? ` with ${changed} uncommitted file(s) in apps/web` : ""}`;
  } catch {
    return "commit unknown";
  }
}

const PAGES: ReadonlyArray<{ path: string; signedIn: boolean }> = [
  { path: "/sign-in", signedIn: false },
  { path: "/pets", signedIn: true },
];

export async function main(argv: readonly string[]): Promise<number> {
  const options = parseLighthouseOptions(argv);
  apiCommand(); // fails before the build and the seed when the API's start script changed
  const started = new Date();
  const loadAtStart = os.loadavg();
  const work = mkdtempSync(path.join(os.tmpdir(), "petstore-lighthouse-"));
  endOnSignals();
  running.add(() => rmSync(work, { recursive: true, force: true }));
  const out = path.join(RESULTS, `lighthouse-${timeStamp(started)}`);
  mkdirSync(out, { recursive: true });
  try {
    const source = sourceLine();
    let distDir = options.webDist;
    if (!distDir) {
      distDir = path.join(work, "web-dist");
      const buildStart = Date.now();
      await buildWebApp(distDir);
      log(`lighthouse: built the admin app in ${((Date.now() - buildStart) / 1000).toFixed(0)} s`);
    }
    const database = path.join(work, "lighthouse.db");
    await migrateForBuild(`file:${database}`);
    seedSqlite(database, options.pets);
    const origin = `http://127.0.0.1:${options.port}`;
    const api = await startBenchServer("api", {
      databaseUrl: `file:${database}`,
      logFile: path.join(work, "api.log"),
      cwd: work,
      apiEnv: { PORT: String(options.port), ADMIN_ORIGIN: origin, WEB_DIST_DIR: distDir },
    });
    const endApi = () => api.child.kill("SIGKILL");
    running.add(endApi);
    const results: PageResult[] = [];
    let lighthouseVersion = "";
    let userAgent = "";
    try {
      const cookie = await startBrowserSession(api.url, API_KEY);
      const runOne = lighthouseRunner(process.env["CHROME_PATH"] ?? options.chromePath);
      for (const preset of options.presets) {
        const lhrs = new Map<string, Lhr[]>(PAGES.map((page) => [page.path, []]));
        for (let run = 1; run <= options.runs; run++) {
          for (const page of PAGES) {
            const lhr = await runOne(`${origin}${page.path}`, preset, page.signedIn ? cookie : undefined);
            if (lhr.runtimeError)
              throw new Error(`${preset} ${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
            if (new URL(lhr.finalDisplayedUrl).pathname !== page.path) {
              throw new Error(
                `${preset} ${page.path} ended at ${lhr.finalDisplayedUrl}${page.signedIn ? " (not signed in?)" : ""}`,
              );
            }
            writeFileSync(path.join(out, `${preset}${page.path.replace(/\//g, "-")}-${run}.json`), JSON.stringify(lhr));
            lighthouseVersion = lhr.lighthouseVersion;
            userAgent = lhr.environment.hostUserAgent;
            lhrs.get(page.path)!.push(lhr);
            const figures = figuresOf(lhr);
            log(
              `lighthouse: ${preset} ${page.path} run ${run}/${options.runs}: performance ${figures.performance}, accessibility ${figures.accessibility}, ` +
                `best practices ${figures.bestPractices}, LCP ${fixed(figures.lcpMs)} ms, TBT ${fixed(figures.tbtMs)} ms, CLS ${fixed(figures.cls, 3)}` +
                (lhr.runWarnings.length ? ` (warnings: ${lhr.runWarnings.join(" | ")})` : ""),
            );
          }
        }
        for (const page of PAGES) {
          const pageLhrs = lhrs.get(page.path)!;
          const runs = pageLhrs.map(figuresOf);
          results.push({
            preset,
            page: page.path,
            runs,
            median: medianFigures(runs),
            failing: failingAudits(pageLhrs),
          });
        }
      }
    } finally {
      running.delete(endApi);
      await stopServer(api);
    }
    const chromium = /Chrome\/([\d.]+)/.exec(userAgent)?.[1] ?? "?";
    const report = [
      `# Lighthouse, ${started.toISOString().slice(0, 16).replace("T", " ")} UTC`,
      "",
      `Lighthouse ${lighthouseVersion} on Chromium ${chromium} (headless), ${options.runs} runs per page and preset, medians figure by figure; ` +
        `${options.pets} pets, SQLite; the admin app ${options.webDist ? `from ${options.webDist}` : `built from the working tree (${source})`}, served by the production API.`,
      `Machine: ${machineLine(loadAtStart)} at start; load average ${os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(" / ")} at end. ` +
        `Lighthouse's benchmark index (median): ${results.map((result) => `${result.preset} ${result.page} ${fixed(result.median.benchmarkIndex)}`).join(", ")}.`,
      "",
      figuresTable(results),
      "",
      "Targets (issue 52): performance >= 95, accessibility 100, best practices 100, CLS < 0.05.",
      ...results.map(({ preset, page, median }) => {
        const missed = missedTargets(median);
        return `- ${preset} ${page}: ${missed.length ? `MISSED ${missed.join(", ")}` : "met"}`;
      }),
      "",
      "## Failing audits",
      "",
      auditsSection(results),
      `Every run's report (JSON): ${path.relative(process.cwd(), out) || out}`,
    ].join("\n");
    writeFileSync(path.join(out, "report.md"), report);
    process.stdout.write(`${report}\n`);
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await runIfEntry(import.meta.url, main);
