#!/usr/bin/env node
// Fails when the JavaScript a first visit downloads exceeds the budget (issue 3:
// at most 120 KB gzip). "Initial" = the entry scripts of dist/index.html plus
// every chunk they modulepreload; lazily imported chunks are not counted.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const BUDGET_BYTES = 120 * 1024;

const distDir = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const indexHtml = join(distDir, "index.html");
if (!existsSync(indexHtml)) {
  console.error(`bundle budget: ${indexHtml} is missing; run the build first`);
  process.exit(1);
}

const html = readFileSync(indexHtml, "utf8");
const scripts = [
  ...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g),
  ...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g),
].map((match) => match[1]);
if (scripts.length === 0) {
  console.error("bundle budget: dist/index.html loads no module script; is this a Vite build?");
  process.exit(1);
}

let total = 0;
for (const src of new Set(scripts)) {
  const bytes = gzipSync(readFileSync(join(distDir, src.replace(/^\//, ""))), { level: 9 }).length;
  total += bytes;
  console.log(`  ${src}  ${(bytes / 1024).toFixed(1)} KB gzip`);
}
const verdict = total <= BUDGET_BYTES ? "within" : "OVER";
console.log(
  `bundle budget: initial JavaScript ${(total / 1024).toFixed(1)} KB gzip, ${verdict} the ${BUDGET_BYTES / 1024} KB budget`,
);
process.exit(total <= BUDGET_BYTES ? 0 : 1);
