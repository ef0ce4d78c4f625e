import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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
 * How production starts the API: its package's `start` script, which must be
 * `node [--flag ...] <file>` (run from the package's folder). The bench runs
 * that file with those flags, the same Node and working directory, without a package manager in between,
 * so the process it measures (CPU, RSS) is the server itself.
 * `BENCH_API_MAIN` (another build's main.js, for before/after figures) runs
 * from its package's folder the same way.
 */
export function productionApiCommand(
  apiRoot: string,
  otherMain = process.env["BENCH_API_MAIN"],
): { script: string; nodeArgs: string[]; cwd: string } {
  const { scripts } = JSON.parse(readFileSync(path.join(apiRoot, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  const words = (scripts?.["start"] ?? "").trim().split(/\s+/);
  const script = words.at(-1) ?? "";
  const nodeArgs = words.slice(1, -1);
  if (
    words[0] !== "node" ||
    words.length < 2 ||
    script.startsWith("-") ||
    !nodeArgs.every((arg) => arg.startsWith("--"))
  ) {
    throw new Error(
      `apps/api's start script is ${JSON.stringify(scripts?.["start"])}, not "node [--flag ...] <file>": update productionApiCommand`,
    );
  }
  if (otherMain) return { script: path.resolve(otherMain), nodeArgs, cwd: path.resolve(path.dirname(otherMain), "..") };
  return { script: path.join(apiRoot, script), nodeArgs, cwd: apiRoot };
}

export interface StartOptions {
  nodeArgs?: string[];
  cwd: string;
  /** The server's stdout (its JSON log lines) is appended to this file, as a production service writes them; unset: /dev/null. */
  logFile?: string;
  /** Pin the server (every thread) to this core with taskset. */
  cpu?: number;
}

/**
 * Starts `script` on a free port (PORT, HOST) and waits until its `/readyz`
 * answers 200. Its stderr is kept for the error message should it not start.
 */
export async function startServer(
  script: string,
  env: Record<string, string>,
  { nodeArgs = [], cwd, logFile, cpu }: StartOptions,
): Promise<RunningServer> {
  // A caller that must know the origin before the server starts (the web step's ADMIN_ORIGIN) picks the port.
  const port = env["PORT"] ? Number(env["PORT"]) : await freePort();
  const command = [process.execPath, ...nodeArgs, script];
  const stdout = logFile ? openSync(logFile, "a") : "ignore";
  let child: ChildProcess;
  try {
    // taskset execs the command: the child's pid is the server's.
    child = spawn(
      cpu === undefined ? command[0]! : "taskset",
      cpu === undefined ? command.slice(1) : ["-c", String(cpu), ...command],
      {
        env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
        stdio: ["ignore", stdout, "pipe"],
        cwd,
      },
    );
  } finally {
    if (typeof stdout === "number") closeSync(stdout);
  }
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${path.basename(script)} exited ${child.exitCode}: ${stderr.slice(-2000)}`);
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

/** CPU time of every thread of `pid` (user + system, from /proc/<pid>/task/<tid>/schedstat), in ns; NaN once it has ended. */
/**
 * Bytes the process has handed to write(2) and its kin so far (`wchar` of /proc/<pid>/io): the database's
 * WAL frames and checkpoints, and the log lines. Per request, a repeatable figure beside the CPU's.
 */
export function writtenBytes(pid: number): number {
  const line = /^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"));
  return line ? Number(line[1]) : NaN;
}

export function cpuNs(pid: number): number {
  let total = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    return NaN;
  }
  return total;
}

/**
 * CPU time of process `pid`, threads that have ended included (/proc/<pid>/stat's
 * utime + stime, in clock ticks of 10 ms), in ns; NaN once it has ended.
 */
export function processCpuNs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces), from field 3 on: utime is the 14th field, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 1e7;
  } catch {
    return NaN;
  }
}
