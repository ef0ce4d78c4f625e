import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { ErrorBody } from "@petstore/contract";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { createHttpServer } from "../http/http-server.js";
import { createTestApp, TEST_KEY, type TestApp } from "../test/test-app.js";
import { createLogger } from "./logger.js";
import { createStopSwitch, drainThenClose, type GracefulShutdown } from "./shutdown.js";

let t: TestApp | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await t?.close();
  t = undefined;
});

interface Started {
  port: number;
  shutdown: GracefulShutdown;
  logs: string[];
  /** Resolves with the exit code the shutdown asked for. */
  exitCode: Promise<number>;
  databaseClosed: () => boolean;
  /** Resolves when the server has read the first request's head: from then on it is in flight. */
  firstRequest: Promise<void>;
}

/** The real app behind the real HTTP server on a free port, with the shutdown wired as main.ts wires it, but its exit caught. */
async function start({
  drainMs,
  timeoutMs,
  requestTimeoutMs = 10_000,
}: {
  drainMs: number;
  timeoutMs: number;
  requestTimeoutMs?: number;
}) {
  t = await createTestApp({ METRICS_TOKEN: "metrics-token-0123456789abcdef" });
  const logs: string[] = [];
  const logger = createLogger({ logLevel: "info", nodeEnv: "test" }, { write: (line: string) => void logs.push(line) });
  const stopSwitch = createStopSwitch();
  const app = createApp({ config: t.config, logger, database: t.database, stopState: stopSwitch });
  const server = createHttpServer(app, { requestTimeoutMs });
  const firstRequest = new Promise<void>((resolve) => server.once("request", () => resolve()));
  let databaseClosed = false;
  let exited: (code: number) => void = () => {};
  const exitCode = new Promise<number>((resolve) => (exited = resolve));
  const shutdown = drainThenClose({
    server,
    logger,
    stopSwitch,
    drainMs,
    timeoutMs,
    onClosed: async () => void (databaseClosed = true),
    exit: exited,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () => server.closeAllConnections(),
    () => server.close(),
  );
  const started: Started = {
    port: (server.address() as AddressInfo).port,
    shutdown,
    logs,
    exitCode,
    databaseClosed: () => databaseClosed,
    firstRequest,
  };
  return started;
}

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

function get(
  port: number,
  path: string,
  agent: http.Agent | false = false,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on("error", reject);
  });
}

const connects = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

const auth = { Authorization: `Bearer ${TEST_KEY}` };

describe("drainThenClose", () => {
  it("readiness flips to 503 SHUTTING_DOWN at once; the drain answers with Connection: close; then the listener closes and it exits 0", async () => {
    const DRAIN = 600;
    const { port, shutdown, logs, exitCode, databaseClosed } = await start({ drainMs: DRAIN, timeoutMs: 2_000 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(() => agent.destroy());
    const before = await get(port, "/v1/pets", agent, auth);
    expect(before.status).toBe(200);
    expect(before.connection).toBe("keep-alive");
    expect((await get(port, "/readyz")).status).toBe(200);

    const signalledAt = Date.now();
    shutdown.begin("SIGTERM");
    // Readiness says so at once; liveness does not change.
    const ready = await get(port, "/readyz");
    expect(ready.status).toBe(503);
    expect(ErrorBody.parse(JSON.parse(ready.body))).toMatchObject({ code: "SHUTTING_DOWN", status: 503 });
    expect(ready.connection).toBe("close");
    const live = await get(port, "/healthz");
    expect(live.status).toBe(200);
    expect(live.connection).toBe("close");
    const metrics = await get(port, "/metrics", false, { Authorization: "Bearer metrics-token-0123456789abcdef" });
    expect(metrics.body).toMatch(/^petstore_shutting_down 1$/m);

    // During the drain: a request on the pooled keep-alive connection and one on a new connection are both answered, with Connection: close.
    const pooled = await get(port, "/v1/pets", agent, auth);
    expect(pooled).toMatchObject({ status: 200, connection: "close" });
    const fresh = await get(port, "/v1/pets", false, auth);
    expect(fresh).toMatchObject({ status: 200, connection: "close" });
    expect(Date.now() - signalledAt).toBeLessThan(DRAIN);
    expect(await connects(port)).toBe(true);

    // After the drain: the listener is closed, the database closed, exit 0.
    expect(await exitCode).toBe(0);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(DRAIN - 5);
    expect(await connects(port)).toBe(false);
    expect(databaseClosed()).toBe(true);
    const lines = logs.map((line) => JSON.parse(line) as { msg: string; answeredDuringDrain?: number; cut?: number });
    expect(lines.find((line) => line.msg.startsWith("drain over"))?.answeredDuringDrain).toBe(5);
    expect(lines.find((line) => line.msg.startsWith("stopped"))).toMatchObject({ cut: 0 });
  });

  it("with no drain the listener closes in the same turn as the signal", async () => {
    const { port, shutdown, exitCode } = await start({ drainMs: 0, timeoutMs: 2_000 });
    shutdown.begin("SIGINT");
    expect(await connects(port)).toBe(false);
    expect(await exitCode).toBe(0);
  });

  it("a request still in flight past the timeout is cut: exit 1, one line saying how many", async () => {
    const TIMEOUT = 300;
    const { port, shutdown, logs, exitCode, firstRequest } = await start({ drainMs: 0, timeoutMs: TIMEOUT });
    // A create whose body never finishes arriving (REQUEST_TIMEOUT_MS is far off).
    const socket = net.connect(port, "127.0.0.1");
    cleanups.push(() => socket.destroy());
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    // In flight once the server has read its head (a fixed sleep was too short on a busy CI host).
    await firstRequest;
    const signalledAt = Date.now();
    shutdown.begin("SIGTERM");
    expect(await exitCode).toBe(1);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(TIMEOUT - 5);
    const cutLines = logs.filter((line) => line.includes("cut;"));
    expect(cutLines).toHaveLength(1);
    expect(JSON.parse(cutLines[0]!)).toMatchObject({
      level: 50,
      cut: 1,
      msg: expect.stringContaining("1 request(s) cut"),
    });
  });

  it("a second signal exits 1 at once", async () => {
    const { shutdown, exitCode, logs } = await start({ drainMs: 10_000, timeoutMs: 10_000 });
    shutdown.begin("SIGTERM");
    const abortedAt = Date.now();
    shutdown.abort("SIGTERM");
    expect(await exitCode).toBe(1);
    expect(Date.now() - abortedAt).toBeLessThan(50);
    expect(logs.some((line) => line.includes("exiting at once"))).toBe(true);
  });
});
