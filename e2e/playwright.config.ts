import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

export const API_PORT = 3100;
export const API_URL = `http://127.0.0.1:${API_PORT}`;
export const E2E_API_KEY = "e2e-petstore-key-0123456789abcdefghij"; // production wants >= 32 characters
/**
 * The passkey specs' own API, opened at http://localhost: WebAuthn refuses an IP address as relying
 * party, and its ADMIN_ORIGIN (the relying party, the token endpoint's expected Origin) is this origin.
 */
export const PASSKEY_API_PORT = 3101;
export const PASSKEY_APP_URL = `http://localhost:${PASSKEY_API_PORT}`;

// Browser downloads are not possible on these machines: use Debian's Chromium
// when it is installed, Playwright's own browser elsewhere.
const SYSTEM_CHROMIUM = "/usr/bin/chromium";
const chromiumLaunchOptions = {
  ...(existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    // Without these Chromium keeps calling home, which a closed network answers slowly.
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: ".",
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  // Failure detectors, not speed goals: the suites run two at a time on 2 cores (turbo --concurrency=2),
  // so a page or an assertion may wait on a busy CPU. Speed is the benchmark's business.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env["CI"] ? [["list"], ["html", { open: "never" }]] : [["list"]],
  use: {
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "api",
      testMatch: "api/**/*.spec.ts",
      use: { baseURL: API_URL },
    },
    {
      name: "passkeys",
      testMatch: "passkeys/**/*.spec.ts",
      use: {
        baseURL: PASSKEY_APP_URL,
        browserName: "chromium",
        launchOptions: chromiumLaunchOptions,
        viewport: { width: 1280, height: 800 },
      },
    },
    {
      name: "browser",
      testMatch: "browser/**/*.spec.ts",
      // The deployment as it runs in production: the API serves the admin app on its own origin.
      use: {
        baseURL: API_URL,
        browserName: "chromium",
        launchOptions: chromiumLaunchOptions,
        viewport: { width: 1280, height: 800 },
      },
    },
  ],
  webServer: [
    {
      // The built API in production mode on a fresh SQLite file, migrated and seeded at start,
      // serving the admin app's production build (turbo's `build`, made without VITE_API_URL:
      // it calls its own origin, so no CORS is involved).
      command: "rm -rf .data && node ../apps/api/dist/main.js",
      url: `${API_URL}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        NODE_ENV: "production",
        PORT: String(API_PORT),
        HOST: "127.0.0.1",
        // Its public address, the OpenAPI documents' server: /docs's "Try it out" calls this API.
        PUBLIC_URL_PRODUCTION: `${API_URL}/v1`,
        API_KEYS: E2E_API_KEY,
        DATABASE_URL: "file:./.data/e2e.db",
        SEED: "true",
        LOG_LEVEL: "warn",
        RATE_LIMIT_PER_MIN: "0",
        AUTH_FAILURES_PER_MIN: "0",
        WEB_DIST_DIR: "../apps/web/dist",
        // The origin the browser opens the app at: the token endpoint's expected Origin and the base of invitation links.
        ADMIN_ORIGIN: API_URL,
        // The webhook spec's receiver listens on http://127.0.0.1: allow both, and retry and poll quickly.
        WEBHOOK_ALLOW_HTTP: "true",
        WEBHOOK_ALLOW_PRIVATE: "true",
        WEBHOOK_RETRY_SCHEDULE: "1s,1s",
        WEBHOOK_POLL_MS: "100",
        WEBHOOK_TIMEOUT_MS: "2000",
      },
    },
    {
      // The same build for the passkey specs, at http://localhost:3101 with ADMIN_ORIGIN that origin,
      // on a database of its own (its own folder: the first server empties .data as it starts).
      command: "rm -rf .data-passkeys && node ../apps/api/dist/main.js",
      url: `http://127.0.0.1:${PASSKEY_API_PORT}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        NODE_ENV: "production",
        PORT: String(PASSKEY_API_PORT),
        HOST: "127.0.0.1",
        PUBLIC_URL_PRODUCTION: `${PASSKEY_APP_URL}/v1`,
        API_KEYS: E2E_API_KEY,
        DATABASE_URL: "file:./.data-passkeys/e2e.db",
        LOG_LEVEL: "warn",
        RATE_LIMIT_PER_MIN: "0",
        AUTH_FAILURES_PER_MIN: "0",
        WEB_DIST_DIR: "../apps/web/dist",
        ADMIN_ORIGIN: PASSKEY_APP_URL,
      },
    },
  ],
});
