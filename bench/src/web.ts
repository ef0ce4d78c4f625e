/**
 * Web figures: the production bundle's initial JavaScript (gzip), the time
 * to first table render in Chromium against the local API, median of 5, and
 * the time `Export CSV` takes to save every pet of the dataset (one sample:
 * at 10k pets it is 100 pages fetched one after another, seconds long).
 *
 * The app is built here as production builds it (no VITE_API_URL: it calls its
 * own origin) and served by the bench's API itself (WEB_DIST_DIR), with
 * ADMIN_ORIGIN that API's own origin: one origin, as the admin app runs, since its
 * sign-in keeps a cookie session its requests send same-origin only (a separate
 * static origin, as this step had before cookie sessions, can no longer sign in).
 * Each sample signs in through the form with the key, in a fresh browser
 * context (cold cache), then reloads /pets. The render time
 * is performance.now() when the first table body row enters the DOM, taken by
 * a MutationObserver in the page, so polling adds nothing.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import type { Browser, Page } from "@playwright/test";
import { freePort } from "./server-process.js";

const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "apps", "web");
const SYSTEM_CHROMIUM = "/usr/bin/chromium";
const SAMPLES = 5;

export interface WebResult {
  initialJsGzipBytes: number;
  scripts: string[];
  samplesMs: number[];
  medianMs: number;
  /** Export CSV of the unfiltered list: from the click to the "Exported N pets" status (the file saved). */
  exportedPets: number;
  exportSeconds: number;
}

interface Api {
  url: string;
}

/** Where the API that serves the app must listen, its own origin (ADMIN_ORIGIN), and the build it serves (WEB_DIST_DIR). */
export interface WebApiStart {
  port: number;
  origin: string;
  distDir: string;
}

export interface WebOptions<S extends Api> {
  work: string;
  startApi: (web: WebApiStart) => Promise<S>;
  stopApi: (server: S) => Promise<void>;
  apiKey: string;
  /** The pets in the API's database: what Export CSV must save. */
  rows: number;
  log: (message: string) => void;
}

/** Entry scripts of index.html plus what they modulepreload; lazy chunks are not initial. */
export function initialJs(distDir: string): { bytes: number; scripts: string[] } {
  const html = readFileSync(path.join(distDir, "index.html"), "utf8");
  const scripts = [
    ...new Set(
      [
        ...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g),
        ...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g),
      ].map((match) => match[1]!),
    ),
  ];
  const bytes = scripts.reduce(
    (sum, src) => sum + gzipSync(readFileSync(path.join(distDir, src.replace(/^\//, ""))), { level: 9 }).length,
    0,
  );
  return { bytes, scripts };
}

/**
 * Builds the admin app into `distDir` as production builds it: no VITE_API_URL, so it calls its own origin
 * (the API that serves it). apps/web/dist, which other work may be serving, is left alone.
 */
export async function buildWebApp(distDir: string): Promise<void> {
  if (!existsSync(path.join(WEB_ROOT, "package.json"))) throw new Error("apps/web is missing");
  const vite = path.join(WEB_ROOT, "node_modules", "vite", "bin", "vite.js");
  const { VITE_API_URL: _unset, ...buildEnv } = process.env;
  await promisify(execFile)(
    process.execPath,
    [vite, "build", "--outDir", distDir, "--emptyOutDir", "--logLevel", "error"],
    {
      cwd: WEB_ROOT,
      env: { ...buildEnv, NODE_ENV: "production" },
    },
  );
}

export async function measureWeb<S extends Api>({
  work,
  startApi,
  stopApi,
  apiKey,
  rows,
  log,
}: WebOptions<S>): Promise<WebResult> {
  const distDir = path.join(work, "web-dist");
  await buildWebApp(distDir);
  const { bytes, scripts } = initialJs(distDir);
  log(`web: initial JS ${(bytes / 1024).toFixed(1)} KB gzip`);
  const port = await freePort();
  const webUrl = `http://127.0.0.1:${port}`;
  const api = await startApi({ port, origin: webUrl, distDir });
  try {
    const { chromium } = await import("@playwright/test");
    const browser = await chromium.launch({
      ...(existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
      ],
    });
    const samplesMs: number[] = [];
    let exportSeconds = NaN;
    try {
      for (let i = 0; i < SAMPLES; i++) {
        const context = await browser.newContext();
        await context.addInitScript(() => {
          const w = window as unknown as { __firstTableRow?: number };
          const observer = new MutationObserver(() => {
            if (document.querySelector("table tbody tr")) {
              w.__firstTableRow = performance.now();
              observer.disconnect();
            }
          });
          observer.observe(document, { childList: true, subtree: true });
        });
        const page = await context.newPage();
        await signIn(page, webUrl, apiKey);
        // Timed: a signed-in tab reloading the list, as a member of staff opens it again.
        await page.reload();
        await page.locator("table tbody tr").first().waitFor({ timeout: 15_000 });
        samplesMs.push(await page.evaluate(() => (window as unknown as { __firstTableRow: number }).__firstTableRow));
        await context.close();
      }
      exportSeconds = await timeExport(browser, webUrl, apiKey, rows);
      log(`web: Export CSV of ${rows} pets ${exportSeconds.toFixed(1)} s`);
    } finally {
      await browser.close();
    }
    const sorted = [...samplesMs].sort((a, b) => a - b);
    log(`web: first table render ${samplesMs.map((ms) => ms.toFixed(0)).join(", ")} ms`);
    return {
      initialJsGzipBytes: bytes,
      scripts,
      samplesMs,
      medianMs: sorted[Math.floor(sorted.length / 2)]!,
      exportedPets: rows,
      exportSeconds,
    };
  } finally {
    await stopApi(api);
  }
}

/** Signed in at /pets, `Export CSV` clicked: seconds until the app says every pet was exported (its file saved). */
async function timeExport(browser: Browser, webUrl: string, apiKey: string, rows: number): Promise<number> {
  const context = await browser.newContext({ acceptDownloads: true });
  try {
    const page = await context.newPage();
    await signIn(page, webUrl, apiKey);
    const downloading = page.waitForEvent("download", { timeout: 120_000 });
    const started = Date.now();
    await page.getByRole("button", { name: "Export CSV" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Exported ${rows} pets` })
      .waitFor({ timeout: 120_000 });
    const seconds = (Date.now() - started) / 1000;
    await downloading;
    return seconds;
  } finally {
    await context.close();
  }
}

/**
 * Through the sign-in form, as a person does: the app keeps the key together
 * with who it is (getSession's answer), so a key alone in sessionStorage is a
 * signed-out tab.
 */
async function signIn(page: Page, webUrl: string, apiKey: string): Promise<void> {
  await page.goto(`${webUrl}/pets`);
  await page.getByLabel("API key", { exact: true }).fill(apiKey);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.locator("table tbody tr").first().waitFor({ timeout: 15_000 });
}
