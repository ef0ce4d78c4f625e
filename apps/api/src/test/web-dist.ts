import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { createTestApp, type TestApp } from "./test-app.js";

/** The app's first stylesheet, inline as the build writes it (apps/web/vite.config.ts, inlineEntryStylesheet). */
export const FIXTURE_INLINE_CSS = "body{margin:0}";
export const FIXTURE_INDEX_HTML = `<!doctype html><title>Petstore admin</title><style>${FIXTURE_INLINE_CSS}</style><script type="module" src="/assets/app-abc123.js"></script>`;
export const FIXTURE_ASSET = "/assets/app-abc123.js";

/** A stand-in for the admin app's Vite build, so tests need no web build: index.html and a hashed asset (each with its Brotli and gzip copies), a favicon. */
export function webDistFixture(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), "petstore-web-dist-"));
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(path.join(dir, "index.html"), FIXTURE_INDEX_HTML);
  writeFileSync(path.join(dir, "index.html.br"), brotliCompressSync(FIXTURE_INDEX_HTML));
  writeFileSync(path.join(dir, "index.html.gz"), gzipSync(FIXTURE_INDEX_HTML));
  const asset = Buffer.from('console.log("app");\n');
  writeFileSync(path.join(dir, "assets", "app-abc123.js"), asset);
  // As the build writes them beside each asset (apps/web/vite.config.ts, precompress).
  writeFileSync(path.join(dir, "assets", "app-abc123.js.br"), brotliCompressSync(asset));
  writeFileSync(path.join(dir, "assets", "app-abc123.js.gz"), gzipSync(asset));
  writeFileSync(path.join(dir, "favicon.svg"), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A test app serving the fixture build (WEB_DIST_DIR); its close() removes the fixture too. */
export async function createTestAppWithWebDist(env: Record<string, string> = {}): Promise<TestApp> {
  const dist = webDistFixture();
  try {
    const t = await createTestApp({ WEB_DIST_DIR: dist.dir, ...env });
    return {
      ...t,
      async close() {
        await t.close();
        dist.remove();
      },
    };
  } catch (error) {
    dist.remove();
    throw error;
  }
}
