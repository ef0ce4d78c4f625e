import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

/** A port nothing listens on at the moment of asking. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  stderr: () => string;
}

/**
 * Starts `script` on a free port (PORT, HOST) and waits until its `/readyz`
 * answers 200. Its log lines go to /dev/null: formatting and writing them is
 * still paid, as in production.
 */
export async function startServer(
  script: string,
  env: Record<string, string>,
  { nodeArgs = [], cwd }: { nodeArgs?: string[]; cwd: string },
): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "pipe"],
    cwd,
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${path.basename(script)} exited ${child.exitCode}: ${stderr.slice(-2000)}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { url, child, stderr: () => stderr };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`${path.basename(script)} did not become ready: ${stderr.slice(-2000)}`);
}

/** SIGTERM (the server drains), SIGKILL after 15 s. */
export async function stopServer(server: RunningServer): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  const timer = setTimeout(() => server.child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Peak RSS since the last reset: /proc's VmHWM; writing 5 to clear_refs resets it. */
export function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    // not Linux or not allowed: the figure is then the peak since start
  }
}

export function peakRssMb(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}
