import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
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
  },
});
