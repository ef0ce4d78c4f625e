import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The layer order of apps/api/src, drawn from the imports themselves (tests and test helpers excluded).
// eslint.config.js enforces the same order file by file (no-restricted-imports); this test adds what a
// pattern cannot see: every file is in a layer, and no folder and no file imports itself round a cycle.

interface Layer {
  name: string;
  files?: string[];
  folders?: string[];
}

const SRC = path.dirname(fileURLToPath(import.meta.url));
const { layers } = JSON.parse(readFileSync(path.join(SRC, "..", "layers.json"), "utf8")) as { layers: Layer[] };

const isSource = (file: string) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.endsWith(".d.ts");

function sourceFiles(dir = SRC, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix + entry.name;
    if (entry.isDirectory()) return relative === "test" || relative === "generated" ? [] : sourceFiles(path.join(dir, entry.name), `${relative}/`);
    return isSource(entry.name) ? [relative] : [];
  });
}

/** Relative imports, static and dynamic, resolved to paths under src (`x.js` names `x.ts`). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), "utf8");
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*)"(\.{1,2}\/[^"]+)"/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, ".ts"));
}

function layerIndexOf(file: string): number {
  const folder = path.posix.dirname(file);
  return layers.findIndex(
    (layer) => layer.files?.includes(file) || layer.folders?.some((name) => folder === name || folder.startsWith(`${name}/`)),
  );
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

const files = sourceFiles();
const fileGraph = new Map(files.map((file) => [file, new Set(importsOf(file).filter((target) => files.includes(target)))]));

describe("apps/api/src layers (apps/api/layers.json)", () => {
  it("finds the source files and their imports (the test reads what it checks)", () => {
    expect(files).toContain("app.ts");
    expect(files).toContain("activity/audit-event.ts");
    expect(fileGraph.get("app.ts")!.size).toBeGreaterThan(10);
  });

  it("puts every source file in exactly one layer", () => {
    expect(files.filter((file) => layerIndexOf(file) === -1)).toEqual([]);
  });

  it("has every import go to the file's own layer or one below it", () => {
    const upward = files.flatMap((file) =>
      [...fileGraph.get(file)!]
        .filter((target) => layerIndexOf(target) < layerIndexOf(file))
        .map((target) => `${file} (${layers[layerIndexOf(file)]!.name}) imports ${target} (${layers[layerIndexOf(target)]!.name})`),
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

  it("keeps the pet repositories clear of access/", () => {
    const petRepositories = files.filter((file) => /^pets\/.*repository\.ts$/.test(file));
    expect(petRepositories.length).toBeGreaterThanOrEqual(3);
    for (const file of petRepositories) expect([...fileGraph.get(file)!].filter((target) => target.startsWith("access/"))).toEqual([]);
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
