import { type Pet, Pets } from "@petstore/contract";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach } from "vitest";
import { API_ROOT } from "../base/env.js";
import { freshDatabase, TEST_KEY, type TestDatabase } from "./test-app.js";

const MAIN = path.join(API_ROOT, "dist", "main.js");

export interface ApiProcess {
  /** The API's origin; known once it listens (after waitUntilReady). */
  readonly url: string;
  child: ChildProcess;
  /** Everything the process wrote, stdout and stderr. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop: (signal?: NodeJS.Signals) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts the built API (`dist/main.js`, as `pnpm start` does). It listens on a
 * port the OS picks (PORT=0) and reports it over the IPC channel: picking a
 * free port here and passing it on would race with other test files doing the same.
 */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the API first (turbo does before tests)`);
  const child = spawn(process.execPath, [MAIN], {
    cwd: API_ROOT,
    env: {
      PATH: process.env["PATH"] ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "0",
      LOG_LEVEL: "warn",
      SEED: "false",
      RATE_LIMIT_PER_MIN: "0",
      AUTH_FAILURES_PER_MIN: "0",
      // Production drains for 5 s after SIGTERM; tests that are about the drain set their own.
      SHUTDOWN_DRAIN_MS: "0",
      // Production refuses to start without its public address (the OpenAPI documents' server).
      PUBLIC_URL_PRODUCTION: "https://api.petstore.test/v1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  let url: string | undefined;
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.on("message", (message: { listening?: number }) => {
    if (typeof message.listening === "number") url = `http://127.0.0.1:${message.listening}`;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    get url() {
      if (!url) throw new Error("the API has not reported its port yet: await waitUntilReady first");
      return url;
    },
    child,
    output: () => output,
    exited,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Resolves once GET /readyz answers 200; rejects if the process exits or the time runs out. */
export async function waitUntilReady(api: ApiProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void api.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`API exited before it was ready:\n${api.output()}`);
    try {
      const response = await fetch(`${api.url}/readyz`); // throws until the port is known
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`API not ready after ${timeoutMs} ms:\n${api.output()}`);
}

/** Every pet the API lists, following `Link: rel="next"` page by page. */
export async function listAllPets(api: ApiProcess, headers: Record<string, string>): Promise<Pet[]> {
  const pets: Pet[] = [];
  let next: string | null = "/v1/pets?limit=100";
  while (next) {
    const response: Response = await fetch(`${api.url}${next}`, { headers });
    if (response.status !== 200) throw new Error(`listPets answered ${response.status}: ${await response.text()}`);
    pets.push(...Pets.parse(await response.json()));
    next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get("link") ?? "")?.[1] ?? null;
  }
  return pets;
}

/**
 * For suites that run one built API per test on a fresh SQLite file:
 * `start(env)` resolves once it is ready; after each test it is killed and
 * its database removed. Call at the suite's top level.
 */
export function oneApiProcessPerTest(): {
  start: (env?: Record<string, string>) => Promise<ApiProcess>;
  databaseUrl: () => string;
} {
  let api: ApiProcess | undefined;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await api?.stop("SIGKILL");
    await database?.remove();
    api = undefined;
    database = undefined;
  });
  return {
    async start(env = {}) {
      database = await freshDatabase("sqlite");
      api = await startApiProcess({ API_KEYS: TEST_KEY, DATABASE_URL: database.url, ...env });
      await waitUntilReady(api);
      return api;
    },
    databaseUrl() {
      if (!database) throw new Error("no API process started in this test");
      return database.url;
    },
  };
}
