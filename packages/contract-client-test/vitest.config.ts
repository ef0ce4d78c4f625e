import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // Packing, an npm install (from npm's cache when it can) and two tsc runs take tens of seconds.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
