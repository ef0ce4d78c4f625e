/// <reference types="node" />
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// `composes: x from "./Other.module.css"` makes postcss-modules copy Other's rules into this module's CSS, a
// second copy parsed without a source file: Vite warns about it at every `pnpm dev` ("A PostCSS plugin did not
// pass the `from` option") and the page carries the rules twice. Use the other module's classes in the markup
// (e.g. `buttonClassName` from Button.tsx) instead.
it("no CSS module composes from another file", () => {
  const modules = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((file) =>
    file.endsWith(".module.css"),
  );
  expect(modules.length).toBeGreaterThan(5);
  const composingFromAnother = modules.filter((file) =>
    /composes\s*:[^;]*\bfrom\s/.test(readFileSync(path.join(SRC, file), "utf8")),
  );
  expect(composingFromAnother).toEqual([]);
});
