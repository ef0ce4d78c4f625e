import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * What a document names as a repository path (see doc-paths.test.ts for the rule in words):
 *
 * - the target of a Markdown link or image, `[text](target)`, that is not a URL (`https:`, `mailto:`, ...)
 *   and not only an anchor (`#section`): read relative to the document's own folder, its `#anchor` and
 *   `?query` dropped;
 * - outside fenced code blocks, a word (in prose or in a code span, split at spaces and backticks) that
 *   starts with one of the repository's top-level folders and a slash, like `apps/api/src/base/env.ts` or
 *   `docs/decisions/`: read from the repository's root, its `#anchor` or `:line` dropped and any trailing
 *   punctuation (`.`, `,`, `)`, ...) trimmed. A word holding a placeholder or a pattern (`<`, `>`, `{`,
 *   `}`, `*`, `$`, `…`, `|`) is a shape, not a path, and is not checked.
 *
 * Fenced code blocks are commands and examples whose paths are relative to where they run: not checked.
 */
export interface NamedPath {
  /** The document, relative to the repository's root, with `/`. */
  document: string;
  /** 1-based line of the document. */
  line: number;
  /** As written in the document. */
  written: string;
  /** Relative to the repository's root, with `/` (a trailing `/` kept for a folder). */
  repoPath: string;
}

const URL_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const PLACEHOLDER = /[<>{}*$…|]/;
const LINK = /!?\[((?:[^\][]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const LEADING = /^[("'[]+/;
const TRAILING = /[)"'\],.;:!?]+$/;

/** The paths one document names, by the rule above. `topFolders`: the repository's top-level folders (`apps`, `docs`, ...). */
export function namedPaths(document: string, text: string, topFolders: ReadonlySet<string>): NamedPath[] {
  const found: NamedPath[] = [];
  const folder = path.posix.dirname(document);
  let fence: string | undefined;
  text.split("\n").forEach((lineText, index) => {
    const line = index + 1;
    const fenceMark = /^\s*(```|~~~)/.exec(lineText)?.[1];
    if (fenceMark !== undefined && (fence === undefined || fence === fenceMark)) {
      fence = fence === undefined ? fenceMark : undefined;
      return;
    }
    if (fence !== undefined) return;

    // Links first; what is left of the line (their text included) is read word by word.
    const rest = lineText.replace(LINK, (_match, linkText: string, target: string) => {
      if (!URL_SCHEME.test(target) && !target.startsWith("#")) {
        const bare = decodeURIComponent(target.replace(/[#?].*$/, ""));
        if (bare !== "" && !PLACEHOLDER.test(bare)) {
          const resolved = path.posix.normalize(path.posix.join(folder, bare));
          found.push({ document, line, written: target, repoPath: resolved.replace(/^\.\//, "") });
        }
      }
      return ` ${linkText} `;
    });
    for (const raw of rest.split(/[\s`]+/)) {
      const word = raw.replace(LEADING, "").replace(TRAILING, "");
      const slash = word.indexOf("/");
      if (slash <= 0 || !topFolders.has(word.slice(0, slash))) continue;
      if (URL_SCHEME.test(word) || PLACEHOLDER.test(word)) continue;
      const repoPath = word.replace(/#.*$/, "").replace(/:\d+(?::\d+)?$/, "");
      found.push({ document, line, written: raw, repoPath });
    }
  });
  return found;
}

/** `git` in the repository, its output as text. */
function git(root: string, args: string[], input?: string): string {
  return execFileSync("git", args, { cwd: root, encoding: "utf8", input, maxBuffer: 64 * 1024 * 1024 });
}

/** The documents checked: every `*.md` in the repository (tracked, or new and not ignored) outside docs/decisions/ and docs/archive/. */
export function checkedDocuments(root: string): string[] {
  return git(root, ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", "*.md"])
    .split("\0")
    .filter((file) => file !== "" && !file.startsWith("docs/decisions/") && !file.startsWith("docs/archive/"))
    .filter((file) => existsSync(path.join(root, file)))
    .sort();
}

/** The repository's top-level folders, from the files git knows. */
export function topLevelFolders(root: string): Set<string> {
  const files = git(root, ["ls-files", "--cached", "--others", "--exclude-standard", "-z"]).split("\0");
  return new Set(files.filter((file) => file.includes("/")).map((file) => file.slice(0, file.indexOf("/"))));
}

/** Every named path that does not exist and that git does not ignore (a runtime path such as `apps/api/data/`). */
export function missingPaths(root: string): NamedPath[] {
  const topFolders = topLevelFolders(root);
  const named = checkedDocuments(root).flatMap((document) =>
    namedPaths(document, readFileSync(path.join(root, document), "utf8"), topFolders),
  );
  const absent = named.filter(
    (entry) => entry.repoPath.startsWith("..") || !existsSync(path.join(root, entry.repoPath)),
  );
  // A path that does not exist may be a folder: `dist/` matches `apps/web/dist` only when asked as `apps/web/dist/`.
  const asked = absent
    .filter((entry) => !entry.repoPath.startsWith(".."))
    .map((entry) => entry.repoPath.replace(/\/$/, ""));
  const candidates = [...new Set(asked.flatMap((repoPath) => [repoPath, `${repoPath}/`]))];
  let ignored = new Set<string>();
  if (candidates.length > 0) {
    try {
      ignored = new Set(git(root, ["check-ignore", "--stdin", "-z"], candidates.join("\0") + "\0").split("\0"));
    } catch (error) {
      // `git check-ignore` exits 1 when none of them is ignored.
      if ((error as { status?: number }).status !== 1) throw error;
    }
  }
  return absent.filter((entry) => {
    const bare = entry.repoPath.replace(/\/$/, "");
    return !ignored.has(bare) && !ignored.has(`${bare}/`);
  });
}
