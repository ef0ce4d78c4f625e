import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    globalSetup: ["src/test/global-setup.ts"],
    // Tests that start the built API as a child process need a few seconds.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
