import { defineConfig } from "@playwright/test";

export const API_PORT = 3100;
export const API_URL = `http://127.0.0.1:${API_PORT}`;
export const E2E_API_KEY = "e2e-petstore-key";

export default defineConfig({
  testDir: ".",
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
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
  ],
  webServer: [
    {
      // The built API in production mode on a fresh SQLite file, migrated and seeded at start.
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
        API_KEYS: E2E_API_KEY,
        DATABASE_URL: "file:./.data/e2e.db",
        SEED: "true",
        LOG_LEVEL: "warn",
        RATE_LIMIT_PER_MIN: "0",
        AUTH_FAILURES_PER_MIN: "0",
        CORS_ORIGIN: "http://127.0.0.1:4173",
      },
    },
  ],
});
