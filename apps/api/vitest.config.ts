import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    globalSetup: ["src/test/global-setup.ts"],
    // Tests that start the built API as a child process need a few seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Vitest's default on a 2-core machine is one worker (CPUs - 1), and most of this suite waits on child
    // processes, sockets and timers rather than computing: three files at a time took the suite from 314 s
    // to 212 s on a 2-core machine, every test passing (2026-11-25). Each test has its own database copy.
    maxWorkers: 3,
    // Each worker imports the app's modules once for all its files, not once per file: the suite's import
    // time, summed over files, went from 348 s (beside the e2e suite) to 16 s (alone, the suite in 5.6
    // minutes on a 2-core machine, 2026-11-29). Safe because no module keeps state between tests: each test builds its
    // own app (createApp) on its own database copy, the metrics registry is per app, and the one fake
    // clock (rate-limit.test.ts) is restored after its tests.
    isolate: false,
  },
});
