import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { buildAccessOpenApiDocument } from "./access-openapi.js";
import { buildOpenApiDocument } from "./openapi.js";

// The gate client developers' CI would run on our document: Spectral's CLI with
// the ruleset file beside package.json (spectral:oas recommended + OWASP API Security Top 10 2023).
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const rulesetFile = path.join(packageDir, ".spectral.yaml");
const spectralBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@stoplight/spectral-cli/package.json")),
  "dist",
  "index.js",
);
const scratch = mkdtempSync(path.join(tmpdir(), "petstore-openapi-lint-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Finding {
  code: string;
  message: string;
  path: string[];
  severity: number;
}

const SEVERITY = ["error", "warning", "info", "hint"];

/** Spectral's findings on `document`, run as a developer would run it: the CLI, the ruleset file. */
async function lint(name: string, document: unknown): Promise<Finding[]> {
  const file = path.join(scratch, `${name}.json`);
  writeFileSync(file, JSON.stringify(document, null, 2));
  const run = promisify(execFile)(
    process.execPath,
    [spectralBin, "lint", file, "--ruleset", rulesetFile, "--format", "json", "--quiet", "--fail-severity", "hint"],
    { cwd: packageDir, maxBuffer: 16 * 1024 * 1024 },
  );
  // Spectral exits 1 when it finds anything at or above --fail-severity; its JSON is on stdout either way.
  const { stdout } = await run.catch((failure: { stdout?: string; stderr?: string }) => {
    if (failure.stdout?.trim().startsWith("[")) return { stdout: failure.stdout };
    throw new Error(`spectral did not run: ${failure.stderr ?? String(failure)}`);
  });
  return JSON.parse(stdout) as Finding[];
}

const describeFindings = (findings: Finding[]) =>
  findings.map((f) => `${SEVERITY[f.severity]} ${f.code} at ${f.path.join(".")}: ${f.message}`).join("\n");

// Every document the API serves, as a production configuration with both PUBLIC_URL_PRODUCTION and
// PUBLIC_URL_STAGING builds it: production, then staging. Its servers are its only input (an http:// server
// URL is an error: owasp:api8:2023-no-server-http; a development API lists itself at http://localhost and is
// not what the gate lints).
const servers = [
  { url: "https://api.example-store.com/v1", description: "production" },
  { url: "https://staging.api.example-store.com/v1", description: "staging" },
] as const;
const servedDocuments = {
  "/v1/openapi.json": buildOpenApiDocument(servers),
  "/admin/v1/openapi.json": buildAccessOpenApiDocument(servers),
};

/**
 * What the gate lets through: `owasp:api4:2023-string-restricted` warnings on strings that are free
 * text (no format, pattern or enum fits an error's message), at most this many per document.
 */
const FREE_TEXT_WARNINGS_MAX = 5;
const FREE_TEXT = "owasp:api4:2023-string-restricted";

describe("OpenAPI lint gate: Spectral recommended + OWASP API Security Top 10 2023", () => {
  for (const [name, document] of Object.entries(servedDocuments)) {
    it(
      `finds no error in the served document (${name}), and no warning but at most ${FREE_TEXT_WARNINGS_MAX} on free text`,
      { timeout: 60_000 },
      async () => {
        const findings = await lint(name.replace(/\W+/g, "-"), document);
        const others = findings.filter(
          (finding) => finding.code !== FREE_TEXT || SEVERITY[finding.severity] !== "warning",
        );
        expect(
          others.map((f) => `${f.code} ${f.path.join(".")} ${f.message}`),
          describeFindings(findings),
        ).toEqual([]);
        expect(findings.length, describeFindings(findings)).toBeLessThanOrEqual(FREE_TEXT_WARNINGS_MAX);
      },
    );
  }

  it(`has ${FREE_TEXT} in force: a name without its pattern is a warning`, { timeout: 60_000 }, async () => {
    const document = structuredClone(servedDocuments["/admin/v1/openapi.json"]) as unknown as {
      components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
    };
    delete document.components.schemas["NewApiKey"]?.properties["name"]?.["pattern"];
    const findings = await lint("no-name-pattern", document);
    expect(findings.map((f) => `${SEVERITY[f.severity]} ${f.code} ${f.path.join(".")}`)).toContain(
      `warning ${FREE_TEXT} components.schemas.NewApiKey.properties.name`,
    );
  });

  it(
    "has both rulesets in force: a document without Pets' maxItems and with a server of unknown audience fails",
    { timeout: 60_000 },
    async () => {
      const document = structuredClone(servedDocuments["/v1/openapi.json"]) as unknown as {
        components: { schemas: Record<string, Record<string, unknown>> };
        servers: Array<Record<string, unknown>>;
        info: Record<string, unknown>;
      };
      delete document.components.schemas["Pets"]?.["maxItems"];
      delete document.servers[0]?.["x-internal"];
      delete document.info["contact"];
      const codes = (await lint("broken", document)).map((f) => `${SEVERITY[f.severity]} ${f.code}`);
      expect(codes).toEqual(
        expect.arrayContaining([
          "error owasp:api4:2023-array-limit",
          "error owasp:api9:2023-inventory-access",
          "warning info-contact",
        ]),
      );
    },
  );

  it("turns a rule off only with a one-line reason above it", () => {
    const lines = readFileSync(rulesetFile, "utf8").split("\n");
    const off = lines.flatMap((line, index) => (/^\s+[\w:.-]+:\s*off\s*$/.test(line) ? [index] : []));
    expect(off.length).toBeGreaterThan(0);
    for (const index of off) expect(lines[index - 1], lines[index]).toMatch(/^\s+# \S/);
  });
});
