import react from "@vitejs/plugin-react";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defaultClientConditions, type Plugin } from "vite";
import { defineConfig } from "vitest/config";

/**
 * Brotli (quality 11) and gzip (level 9) copies of the build's page, JavaScript, CSS and SVG, written beside
 * each (`app-1a2b.js.br`, `.gz`) once at build time; the API serves them to browsers that accept them
 * (apps/api/src/http/precompressed-assets.ts). A copy that saves nothing is not written.
 */
function precompress(): Plugin {
  return {
    name: "petstore-precompress",
    apply: "build",
    writeBundle(options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|svg|html)$/.test(fileName)) continue;
        const file = path.join(options.dir ?? "dist", fileName);
        const original = readFileSync(file);
        const copies = [
          [
            ".br",
            brotliCompressSync(original, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: original.length },
            }),
          ],
          [".gz", gzipSync(original, { level: 9 })],
        ] as const;
        for (const [suffix, compressed] of copies)
          if (compressed.length < original.length) writeFileSync(file + suffix, compressed);
      }
    },
  };
}

/**
 * The app's first stylesheet inline in index.html. As a `<link>` in the head it held the first paint back by
 * a round trip (Lighthouse: 150-300 ms on a phone); inline, it arrives with the page (about 4 KB compressed,
 * the page itself is precompressed too). The API allows the block by its hash (apps/api/src/http/web-app.ts,
 * `inlineStyleSources`). A page's own stylesheet stays a file, fetched with that page's code.
 */
function inlineEntryStylesheet(): Plugin {
  return {
    name: "petstore-inline-entry-stylesheet",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, { bundle }) {
        const links = [...html.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g)];
        for (const [link, fileName = ""] of links) {
          const sheet = bundle?.[fileName];
          if (sheet?.type !== "asset" || !ENTRY_STYLESHEET.test(fileName)) {
            throw new Error(`inlineEntryStylesheet: index.html links ${fileName}, not the entry's stylesheet`);
          }
          // The link stays, `disabled`: a disabled stylesheet is not fetched (HTML), and Vite's loader, which
          // adds the entry's stylesheet before a lazily loaded page that uses it unless a <link> to it is
          // there, would otherwise apply a second copy after the page's own rules, overriding them.
          html = html.replace(link, `<style>${String(sheet.source)}</style>${link.replace(/>$/, " disabled>")}`);
        }
        return html;
      },
    },
  };
}

/** The entry chunk's stylesheet: Vite names it after the entry (`index.html`'s script). */
const ENTRY_STYLESHEET = /^assets\/index-[\w-]+\.css$/;

/** Test files that replace a module with vi.mock: each needs a module graph of its own. */
const MOCKING_MODULES = [
  "src/passkeys/passkey-ceremonies.test.ts",
  "src/staff/AccountPage.test.tsx",
  "src/staff/InvitationPage.test.tsx",
  "src/session/SignInPage.test.tsx",
];

/**
 * Under `vite` (dev) the workspace's packages (@petstore/contract) are read from their TypeScript sources, by
 * their "@petstore/source" export condition: the first `pnpm dev` of a clone needs no build, and an edit to the
 * contract reaches the page at once. Builds and tests (mode "test") keep the built `dist` (docs/decisions/054).
 */
function workspaceSources(): Plugin {
  return {
    name: "petstore-workspace-sources",
    apply: (_config, { command, mode }) => command === "serve" && mode === "development",
    config: () => ({ resolve: { conditions: ["@petstore/source", ...defaultClientConditions] } }),
  };
}

/** The development API (apps/api `dev`). */
const DEV_API = "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [react(), inlineEntryStylesheet(), precompress(), workspaceSources()],
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
    restoreMocks: true,
    unstubGlobals: true,
    // 5 s (Vitest's default) was exceeded by whole-app tests on a loaded 2-core machine (2026-11-25).
    testTimeout: 20_000,
    // Most files share their worker's modules and jsdom (isolate: false): the suite took 112 s alone on
    // a 2-core machine, 31 s of it making a jsdom per file, and 36 s so (2026-11-29). Safe because
    // setup.ts empties the page and the storages after each test and no module keeps a session between
    // files. The files that replace a module (vi.mock) need their own module graph: isolated.
    projects: [
      {
        extends: true,
        test: { name: "shared", include: ["src/**/*.test.{ts,tsx}"], exclude: MOCKING_MODULES, isolate: false },
      },
      { extends: true, test: { name: "isolated", include: MOCKING_MODULES, isolate: true } },
    ],
  },
});
