import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // The wrk runs take a few seconds each.
    testTimeout: 30_000,
  },
});
