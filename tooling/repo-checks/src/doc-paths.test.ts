/**
 * Every repository path a document names exists.
 *
 * Documents: every `*.md` of the repository (tracked, or new and not git-ignored), except the decision
 * records (`docs/decisions/`) and the archive (`docs/archive/`), which are kept as they were written.
 *
 * A document names a path when:
 * - it links to it: a Markdown link or image whose target is not a URL and not only an anchor,
 *   `[the interface](docs/interface.md)`, read relative to the document's folder (`#anchor` dropped);
 * - outside fenced code blocks, a word of its prose or of a code span starts with a top-level folder of
 *   the repository and a slash (`apps/api/src/base/env.ts`, `docs/decisions/`), read from the root
 *   (`#anchor` or `:line` dropped, trailing punctuation trimmed). Words with a placeholder or pattern
 *   (`<provider>`, `*.md`, `{id}`, `$KEY`) are shapes, not paths. Paths relative to a package
 *   (`src/main.ts`) and fenced code blocks (commands run elsewhere) are not checked.
 *
 * It must exist in the working tree, unless git ignores it (`git check-ignore`): runtime paths such as
 * `apps/api/data/petstore.db` or `bench/results/` are made by running things, not committed.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { missingPaths, namedPaths } from "./doc-paths.js";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const TOP = new Set(["apps", "docs", "packages", "bench"]);

describe("what a document names as a path", () => {
  it("reads links relative to the document, and words from the root", () => {
    const text = [
      "See [events](events.md#resuming-a-stream), [the contract](../packages/contract/README.md) and <https://example.com/docs/x.md>.",
      "Configuration is read in `apps/api/src/base/env.ts`; the history is in docs/archive/performance-history.md.",
      "Runtime files (`apps/api/data/petstore.db`, git-ignored), `node bench/dist/cpu.js`, `apps/api/src/foo.ts:42`.",
    ].join("\n");
    expect(namedPaths("docs/operations.md", text, TOP).map((entry) => [entry.line, entry.repoPath])).toEqual([
      [1, "docs/events.md"],
      [1, "packages/contract/README.md"],
      [2, "apps/api/src/base/env.ts"],
      [2, "docs/archive/performance-history.md"],
      [3, "apps/api/data/petstore.db"],
      [3, "bench/dist/cpu.js"],
      [3, "apps/api/src/foo.ts"],
    ]);
  });

  it("leaves out URLs, anchors, placeholders, package-relative paths and fenced code", () => {
    const text = [
      "[up](#quick-start), [site](https://www.standardwebhooks.com/), `apps/api/prisma/<provider>/migrations`, `docs/decisions/NNN-*.md`",
      "`src/session/token-manager.ts` and http/express-tuning/ and GET /v1/pets and `/admin/v1/keys`",
      "```sh",
      "node apps/api/nowhere.js",
      "```",
    ].join("\n");
    expect(namedPaths("README.md", text, TOP)).toEqual([]);
  });
});

describe("the repository's documents", () => {
  it("name only paths that exist (or that git ignores)", () => {
    const missing = missingPaths(REPO_ROOT).map(
      (entry) =>
        `${entry.document}:${entry.line}: ${entry.written}${entry.written === entry.repoPath ? "" : ` (${entry.repoPath})`} does not exist and is not git-ignored`,
    );
    expect(missing, "documents name repository paths that do not exist: fix the path or the document").toEqual([]);
  });
});
