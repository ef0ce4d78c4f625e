import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { Redis } from "ioredis";

/** The machine's Redis that shared-counter tests use (each under a key prefix of its own). */
export const REDIS_TEST_URL = process.env["REDIS_TEST_URL"] ?? "redis://127.0.0.1:6379";

/** Why the shared Redis cannot be used, or null when it answers PING. */
export async function redisUnavailable(url = REDIS_TEST_URL): Promise<string | null> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2_000,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    client.disconnect();
  }
}

/** Why `redis-server` cannot be started here, or null when the binary is on PATH. */
export function redisServerMissing(): string | null {
  const probe = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  return probe.error ? `redis-server not found on PATH (${probe.error.message})` : null;
}

/**
 * Requires what a Redis test needs: in CI a missing piece fails the file;
 * elsewhere it is skipped with one clear warning (as global setup does for PostgreSQL).
 */
export function requireOrSkip(what: string, problem: string | null): boolean {
  if (!problem) return true;
  if (process.env["CI"]) throw new Error(`${what} is required in CI: ${problem}`);
  console.warn(`${what} tests not run: ${problem}. .ci/run installs and starts Redis.`);
  return false;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A throwaway redis-server of the test's own, which it may stop and start again on the same port. */
export class OwnRedisServer {
  private process: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<OwnRedisServer> {
    const server = new OwnRedisServer(await freePort());
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (again) on its port, with nothing saved to disk; resolves once it answers PING. */
  async restart(): Promise<void> {
    if (this.process) throw new Error("already running");
    const child = spawn(
      "redis-server",
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      {
        stdio: "ignore",
      },
    );
    this.process = child;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode} on port ${this.port}`);
      if ((await redisUnavailable(this.url)) === null) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server on port ${this.port} did not answer within 10 s`);
  }

  /** Kills it at once, as a crash or a lost network would. */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill("SIGKILL");
    });
  }
}
