import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * What a client developer gets from `npm install @petstore/contract`: the
 * tarball `pnpm pack` makes, installed by npm into a project outside the
 * workspace (no workspace links, no catalog, no hoisted dev dependencies),
 * compiled with that project's own TypeScript and run against the built API.
 */

const CLIENT_PROJECT = fileURLToPath(new URL("../client-project", import.meta.url));
const API_ROOT = path.dirname(fileURLToPath(import.meta.resolve("@petstore/api/package.json")));
const API_MAIN = path.join(API_ROOT, "dist", "main.js");
const API_KEY = "pack-test-key-0123456789abcdefghijklmnop"; // production wants >= 32 characters
const CLIENT_PROJECT_PACKAGES = ["typescript@5.9", "@ts-rest/core@3.52.1", "zod@3", "@types/node@20"];

let scratch: string;
let project: string;
let api: ChildProcess | undefined;
let apiUrl: string;
let apiOutput = "";

/** Runs a command to its end; throws with its output when it fails, unless asked not to. */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; allowFailure?: boolean },
): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd: options.cwd, env: options.env ?? process.env, encoding: "utf8" });
  if (result.error) throw result.error;
  if (result.status !== 0 && !options.allowFailure) {
    throw new Error(`${command} ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/**
 * The pnpm running this test packs too (pnpm sets npm_execpath for its scripts);
 * started some other way, corepack's pnpm.
 */
function pnpmCommand(): [string, string[]] {
  const execPath = process.env["npm_execpath"];
  if (execPath && /pnpm/.test(path.basename(execPath))) return [process.execPath, [execPath]];
  return ["corepack", ["pnpm"]];
}

/**
 * npm must see a plain environment: the npm_* variables pnpm sets for this
 * script (package name, lifecycle, user agent) describe the workspace package.
 * npm's own configuration (npm_config_*, e.g. a registry mirror) is kept.
 */
function npmEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) || /^npm_config_/i.test(name)),
  );
}

function filesUnder(folder: string, prefix = ""): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(path.join(folder, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

let compiledClientProject: SpawnSyncReturns<string> | undefined;
/** client.ts and openapi.ts, compiled once into the scratch project's dist. */
function compileClientProject(): SpawnSyncReturns<string> {
  compiledClientProject ??= tsc("-p", "tsconfig.json");
  return compiledClientProject;
}

function tsc(...args: string[]): SpawnSyncReturns<string> {
  return run(process.execPath, [path.join(project, "node_modules", "typescript", "bin", "tsc"), ...args], {
    cwd: project,
    allowFailure: true,
  });
}

/** Starts the built API on a port the OS picks; resolves with its origin once it listens. */
async function startApi(databaseFile: string): Promise<string> {
  if (!existsSync(API_MAIN)) throw new Error(`${API_MAIN} is missing: build the API first (turbo does before tests)`);
  const child = spawn(process.execPath, [API_MAIN], {
    cwd: API_ROOT,
    env: {
      PATH: process.env["PATH"] ?? "",
      NODE_ENV: "production",
      API_KEYS: API_KEY,
      DATABASE_URL: `file:${databaseFile}`,
      HOST: "127.0.0.1",
      PORT: "0",
      SEED: "false",
      LOG_LEVEL: "warn",
      // No load balancer to drain for: stop at once on SIGTERM.
      SHUTDOWN_DRAIN_MS: "0",
      // Production refuses to start without its public address (the OpenAPI documents' server).
      PUBLIC_URL_PRODUCTION: "https://api.petstore.test/v1",
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  api = child;
  child.stdout?.on("data", (chunk: Buffer) => (apiOutput += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (apiOutput += chunk.toString()));
  // The API sends { listening: port } over IPC once migrated and listening.
  return new Promise((resolve, reject) => {
    child.on("message", (message: { listening?: number }) => {
      if (typeof message.listening === "number") resolve(`http://127.0.0.1:${message.listening}`);
    });
    child.once("exit", (code) => reject(new Error(`the API exited (${code}) before listening:\n${apiOutput}`)));
  });
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), "petstore-contract-client-"));
  const tarballs = path.join(scratch, "tarballs");
  project = path.join(scratch, "client");

  const [pnpm, pnpmArgs] = pnpmCommand();
  run(pnpm, [...pnpmArgs, "--filter", "@petstore/contract", "pack", "--pack-destination", tarballs], {
    cwd: CLIENT_PROJECT,
  });
  const tarball = readdirSync(tarballs).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`pnpm pack left no tarball in ${tarballs}`);

  cpSync(CLIENT_PROJECT, project, { recursive: true });
  writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "petstore-client", version: "0.0.0", private: true, type: "module" }, null, 2),
  );
  run(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      path.join(tarballs, tarball),
      ...CLIENT_PROJECT_PACKAGES,
    ],
    { cwd: project, env: npmEnvironment() },
  );

  apiUrl = await startApi(path.join(scratch, "pack.db"));
});

afterAll(async () => {
  if (api && api.exitCode === null && api.signalCode === null) {
    const exited = new Promise((resolve) => api?.once("exit", resolve));
    api.kill("SIGTERM");
    await exited;
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("@petstore/contract as npm installs it from its tarball", () => {
  const installed = () => path.join(project, "node_modules", "@petstore", "contract");

  it("holds the built JavaScript, declarations and maps, README, LICENSE and package.json: no sources, no tests", () => {
    const files = filesUnder(installed());
    expect(files.filter((file) => !/^dist\/[\w-]+\.(js|js\.map|d\.ts|d\.ts\.map)$/.test(file))).toEqual([
      "LICENSE",
      "README.md",
      "package.json",
    ]);
    expect(files.filter((file) => /\.test\./.test(file))).toEqual([]);
    for (const entry of ["index", "openapi"]) {
      for (const extension of [".js", ".js.map", ".d.ts", ".d.ts.map"]) {
        expect(files).toContain(`dist/${entry}${extension}`);
      }
    }
  });

  it("carries its sources inside the JavaScript maps, since src is not shipped", () => {
    const maps = filesUnder(installed()).filter((file) => file.endsWith(".js.map"));
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(path.join(installed(), map), "utf8")) as {
        sources: string[];
        sourcesContent?: Array<string | null>;
      };
      expect(sourcesContent?.length, map).toBe(sources.length);
      expect(
        sourcesContent?.every((content) => typeof content === "string" && content.length > 0),
        map,
      ).toBe(true);
    }
  });

  it("has a package.json npm can publish: no workspace or catalog specifiers, not private", () => {
    const text = readFileSync(path.join(installed(), "package.json"), "utf8");
    const manifest = JSON.parse(text) as Record<string, unknown>;
    expect(text).not.toMatch(/"(workspace|catalog):/);
    expect(manifest["private"]).toBeUndefined();
    expect(manifest["license"]).toBe("MIT");
    expect(manifest["peerDependencies"]).toMatchObject({
      "@ts-rest/core": expect.any(String),
      zod: expect.any(String),
    });
    expect(manifest["dependencies"]).toMatchObject({ "@ts-rest/open-api": expect.any(String) });
  });

  it("types a client that compiles under strict NodeNext and works against the built API", () => {
    const compiled = compileClientProject();
    expect(compiled.stdout + compiled.stderr).toBe("");
    expect(compiled.status).toBe(0);

    const client = run(process.execPath, ["dist/client.js"], {
      cwd: project,
      env: { ...process.env, PETSTORE_API_URL: apiUrl, PETSTORE_API_KEY: API_KEY },
    });
    const result = JSON.parse(client.stdout.trim().split("\n").at(-1) ?? "") as {
      created: { id: number; name: string; categoryId: number; status?: string };
      listedIds: number[];
      fetched: unknown;
      notFound: { code: string; status: number };
      invalid: { code: string; status: number };
      unauthorized: { code: string; status: number };
      sale: unknown;
      conflict: { code: string; status: number; message: string };
    };
    expect(result.created).toEqual({ id: expect.any(Number), name: "Rex", categoryId: 3, status: "available" });
    expect(result.listedIds).toContain(result.created.id);
    expect(result.fetched).toEqual(result.created);
    expect(result.notFound).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect(result.invalid).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    expect(result.unauthorized).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    // The safe sale: read, test and replace; then a stale seller's 409, with nothing overwritten.
    expect(result.sale).toEqual({ ...result.created, status: "sold" });
    expect(result.conflict).toMatchObject({
      code: "CONFLICT",
      status: 409,
      message: expect.stringMatching(/^status is "sold", not "available"/),
    });
  });

  it("builds the OpenAPI document from the ./openapi subpath", () => {
    expect(compileClientProject().status).toBe(0);
    const output = run(process.execPath, ["dist/openapi.js"], { cwd: project });
    const document = JSON.parse(output.stdout) as { openapi: string; servers: string[]; paths: string[] };
    expect(document.openapi).toMatch(/^3\./);
    // The servers client-project/openapi.ts passes, in order; the /v1 prefix lives in their URLs, paths are relative to them.
    expect(document.servers).toEqual(["https://api.petstore.example/v1", "https://staging.petstore.example/v1"]);
    expect(document.paths).toEqual(expect.arrayContaining(["/pets", "/pets/{petId}"]));
  });

  it("refuses to compile a createPet call with a number for name", () => {
    const compiled = tsc("-p", "tsconfig.mistyped.json");
    const output = compiled.stdout + compiled.stderr;
    expect(compiled.status).not.toBe(0);
    const errors = output.split("\n").filter((line) => line.includes("error TS"));
    // One error, in mistyped.ts, about the name: nothing else in the package fails to compile.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^mistyped\.ts\(\d+,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/,
    );
  });
});
