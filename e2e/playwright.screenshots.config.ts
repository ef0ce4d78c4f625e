import { defineConfig } from "@playwright/test";
import testConfig from "./playwright.config.js";

/**
 * Takes the screenshots of docs/admin-app.md from the running app (same servers as the
 * tests). Not part of `pnpm test`: run `pnpm --filter @petstore/e2e screenshots`.
 */
export default defineConfig({
  ...testConfig,
  testDir: "scripts",
  testMatch: "*.screenshots.ts",
  reporter: [["list"]],
  projects: testConfig.projects
    ?.filter((project) => project.name === "browser")
    .map((project) => ({
      ...project,
      testMatch: "*.screenshots.ts",
    })),
});
