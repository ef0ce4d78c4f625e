import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/** The development API (apps/api `dev`). */
const DEV_API = "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [react()],
  // Under `vite dev` the app calls its own origin (http://localhost:5173) and this server passes the
  // API's paths on, so the session cookie is first-party and no CORS is involved. The Host and Origin
  // headers stay the browser's: the API checks Origin against ADMIN_ORIGIN (default http://localhost:5173).
  server: {
    proxy: {
      "/v1": { target: DEV_API },
      "/admin": { target: DEV_API },
    },
  },
  build: {
    // The budget script reads these: one entry chunk plus what it preloads.
    sourcemap: false,
    target: "es2022",
  },
  css: {
    modules: { localsConvention: "camelCaseOnly" },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    restoreMocks: true,
    unstubGlobals: true,
    // 5 s (Vitest's default) was exceeded by whole-app tests on a loaded 2-core machine (2026-11-25).
    testTimeout: 20_000,
  },
});
