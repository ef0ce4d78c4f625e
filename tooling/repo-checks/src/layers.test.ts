import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The layer order of each app's src, drawn from the imports themselves (tests and test helpers excluded).
// eslint.config.js enforces the same order file by file (no-restricted-imports, from the same layers.json);
// this test adds what a pattern cannot see: every file is in a layer, and no folder and no file imports
// itself round a cycle.

interface Layer {
  name: string;
  files?: string[];
  folders?: string[];
}

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** A module's source, tests and type declarations left out. */
const isSource = (file: string) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.endsWith(".d.ts");

function sourceFiles(src: string, skipped: readonly string[], dir = src, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix + entry.name;
    if (entry.isDirectory())
      return skipped.includes(relative) ? [] : sourceFiles(src, skipped, path.join(dir, entry.name), `${relative}/`);
    return isSource(entry.name) ? [relative] : [];
  });
}

/** Relative imports of modules, static and dynamic, resolved to files under src (`x.js` names `x.ts` or `x.tsx`). */
function importsOf(src: string, file: string): string[] {
  const text = readFileSync(path.join(src, file), "utf8");
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*)"(\.{1,2}\/[^"]+\.js)"/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, "");
    return existsSync(path.join(src, `${target}.tsx`)) ? `${target}.tsx` : `${target}.ts`;
  });
}

/** Strongly connected components of more than one node (or a node importing itself): the cycles. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const APPS = [
  {
    app: "apps/api",
    skipped: ["test", "generated"],
    knownFiles: ["app.ts", "activity/audit-event.ts"],
    entry: "app.ts",
  },
  { app: "apps/web", skipped: ["test"], knownFiles: ["App.tsx", "pets/PetsPage.tsx"], entry: "App.tsx" },
];

describe.each(APPS)("$app/src layers ($app/layers.json)", ({ app, skipped, knownFiles, entry }) => {
  const src = path.join(REPO, app, "src");
  const { layers } = JSON.parse(readFileSync(path.join(REPO, app, "layers.json"), "utf8")) as { layers: Layer[] };
  const files = sourceFiles(src, skipped);
  const fileGraph = new Map(
    files.map((file) => [file, new Set(importsOf(src, file).filter((target) => files.includes(target)))]),
  );
  const layerIndexOf = (file: string): number => {
    const folder = path.posix.dirname(file);
    return layers.findIndex(
      (layer) =>
        layer.files?.includes(file) || layer.folders?.some((name) => folder === name || folder.startsWith(`${name}/`)),
    );
  };

  it("finds the source files and their imports (the test reads what it checks)", () => {
    for (const file of knownFiles) expect(files).toContain(file);
    expect(fileGraph.get(entry)!.size).toBeGreaterThan(10);
  });

  it("puts every source file in exactly one layer", () => {
    expect(files.filter((file) => layerIndexOf(file) === -1)).toEqual([]);
  });

  it("has every import go to the file's own layer or one below it", () => {
    const upward = files.flatMap((file) =>
      [...fileGraph.get(file)!]
        .filter((target) => layerIndexOf(target) < layerIndexOf(file))
        .map(
          (target) =>
            `${file} (${layers[layerIndexOf(file)]!.name}) imports ${target} (${layers[layerIndexOf(target)]!.name})`,
        ),
    );
    expect(upward).toEqual([]);
  });

  it("has no file cycle", () => {
    expect(cycles(fileGraph)).toEqual([]);
  });

  it("has no folder cycle", () => {
    const folderGraph = new Map<string, Set<string>>();
    for (const [file, targets] of fileGraph) {
      const from = path.posix.dirname(file);
      const edges = folderGraph.get(from) ?? new Set<string>();
      folderGraph.set(from, edges);
      for (const target of targets) if (path.posix.dirname(target) !== from) edges.add(path.posix.dirname(target));
    }
    expect(cycles(folderGraph)).toEqual([]);
  });
});

describe("the layers' own rules", () => {
  it("keeps the API's pet repositories clear of access/", () => {
    const src = path.join(REPO, "apps/api/src");
    const petRepositories = sourceFiles(src, ["test", "generated"]).filter((file) =>
      /^pets\/.*repository\.ts$/.test(file),
    );
    expect(petRepositories.length).toBeGreaterThanOrEqual(3);
    for (const file of petRepositories)
      expect(importsOf(src, file).filter((target) => target.startsWith("access/"))).toEqual([]);
  });

  it("detects a cycle when there is one (the checker itself)", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(cycles(graph)).toEqual([["a", "b", "c"]]);
  });
});
