import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** Why `haproxy` cannot be run here, or null when it is on PATH (Debian's package puts it in /usr/sbin). */
export function haproxyMissing(): string | null {
  const probe = spawnSync("haproxy", ["-v"], {
    encoding: "utf8",
    env: { PATH: `${process.env["PATH"] ?? ""}:/usr/sbin:/sbin` },
  });
  return probe.error ? `haproxy not found on PATH (${probe.error.message})` : null;
}

export interface HaproxyOptions {
  /** Each backend server: a name and the 127.0.0.1 port it listens on. */
  servers: ReadonlyArray<{ name: string; port: number }>;
  /** Health-check interval (`inter`). */
  checkIntervalMs: number;
}

export interface Haproxy {
  /** The frontend's Unix socket: clients connect there (no port to race other test files for). */
  socketPath: string;
  /** Each server's state as HAProxy sees it (`UP`, `DOWN`, ...), from its stats socket. */
  serverStates(): Promise<Record<string, string>>;
  /** HAProxy's log (one line per request, `option httplog`) and its own messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * HAProxy in front of the API as an operator would run it for rolling
 * restarts: `/readyz` checked every `checkIntervalMs`, out after two failed
 * checks, back after two good ones; `retries 0` and no `option redispatch`, so
 * every request the balancer cannot deliver shows up as an error rather than being retried away.
 */
export async function startHaproxy({ servers, checkIntervalMs }: HaproxyOptions): Promise<Haproxy> {
  const folder = mkdtempSync(path.join(tmpdir(), "petstore-haproxy-"));
  const socketPath = path.join(folder, "front.sock");
  const statsPath = path.join(folder, "stats.sock");
  const config = path.join(folder, "haproxy.cfg");
  writeFileSync(
    config,
    `global
  nbthread 1
  stats socket ${statsPath} mode 600 level admin
  log stdout format raw local0 info

defaults
  mode http
  log global
  option httplog
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  retries 0

frontend front
  bind unix@${socketPath}
  default_backend api

backend api
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  # A check may take longer than the interval on a busy machine (readiness asks the database): its own timeout.
  timeout check 2s
  default-server inter ${checkIntervalMs}ms fall 2 rise 2
${servers.map(({ name, port }) => `  server ${name} 127.0.0.1:${port} check`).join("\n")}
`,
  );
  const child = spawn("haproxy", ["-db", "-f", config], {
    env: { PATH: `${process.env["PATH"] ?? ""}:/usr/sbin:/sbin` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const serverStates = () =>
    new Promise<Record<string, string>>((resolve, reject) => {
      const socket = net.connect(statsPath);
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
      socket.on("error", reject);
      socket.on("end", () => {
        // CSV: "# pxname,svname,...,status,..." then one row per proxy and server.
        const [header = "", ...rows] = text.trim().split("\n");
        const columns = header.replace(/^# /, "").split(",");
        const [proxy, server, status] = ["pxname", "svname", "status"].map((name) => columns.indexOf(name));
        const states: Record<string, string> = {};
        for (const row of rows.map((line) => line.split(","))) {
          const name = row[server!] ?? "";
          if (row[proxy!] === "api" && name !== "BACKEND") states[name] = row[status!] ?? "";
        }
        resolve(states);
      });
      socket.end("show stat\n");
    });

  const haproxy: Haproxy = {
    socketPath,
    serverStates,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      rmSync(folder, { recursive: true, force: true });
    },
  };
  // Ready once its stats socket answers.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited at start:\n${output}`);
    try {
      await serverStates();
      return haproxy;
    } catch (error) {
      if (Date.now() > deadline) {
        await haproxy.stop();
        throw new Error(`haproxy did not start: ${String(error)}\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
