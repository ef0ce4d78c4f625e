/**
 * The shutdown order on the built API, as a load balancer sees it: readiness
 * flips to 503 at the signal while the listener stays open for
 * SHUTDOWN_DRAIN_MS, answering with `Connection: close`; a request still open
 * past SHUTDOWN_TIMEOUT_MS is cut and the exit code says so.
 */
import http from "node:http";
import net from "node:net";
import { ErrorBody, Pets } from "@petstore/contract";
import { describe, expect, it } from "vitest";
import { oneApiProcessPerTest } from "../api-process.js";
import { TEST_KEY } from "../test-app.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { start: startApi } = oneApiProcessPerTest();

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

function get(url: string, path: string, agent: http.Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}${path}`, { agent, headers: { Authorization: `Bearer ${TEST_KEY}` } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on("error", reject);
  });
}

describe("SIGTERM on the built API", () => {
  it("readiness is 503 SHUTTING_DOWN before the listener closes; requests during the drain are answered with Connection: close; exit 0", async () => {
    const DRAIN = 1_500;
    const { url, child, exited, output } = await startApi({ SHUTDOWN_DRAIN_MS: String(DRAIN), LOG_LEVEL: "info" });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await get(url, "/v1/pets", agent)).toMatchObject({ status: 200, connection: "keep-alive" });

      const signalledAt = Date.now();
      child.kill("SIGTERM");
      // Readiness flips within a few milliseconds, on a new connection: the listener is still open.
      let ready: Answer;
      do ready = await get(url, "/readyz");
      while (ready.status === 200 && Date.now() - signalledAt < 1_000);
      const flippedAfter = Date.now() - signalledAt;
      expect(ready.status).toBe(503);
      expect(ErrorBody.parse(JSON.parse(ready.body))).toMatchObject({ code: "SHUTTING_DOWN", status: 503 });
      expect(flippedAfter).toBeLessThan(DRAIN / 2);
      expect((await get(url, "/healthz")).status).toBe(200);

      // During the drain: answered as usual, on a new connection and on the pooled one, each told to close.
      const fresh = await get(url, "/v1/pets");
      expect(fresh).toMatchObject({ status: 200, connection: "close" });
      expect(Pets.parse(JSON.parse(fresh.body))).toEqual([]);
      expect(await get(url, "/v1/pets", agent)).toMatchObject({ status: 200, connection: "close" });
      expect(Date.now() - signalledAt).toBeLessThan(DRAIN);
      expect(child.exitCode).toBeNull();

      expect(await exited).toEqual({ code: 0, signal: null });
      const stoppedAfter = Date.now() - signalledAt;
      expect(stoppedAfter).toBeGreaterThanOrEqual(DRAIN);
      // The drain's figures are in the log.
      const lines = output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { msg: string; answeredDuringDrain?: number; cut?: number });
      expect(lines.find((line) => line.msg.startsWith("drain over"))?.answeredDuringDrain).toBeGreaterThanOrEqual(4);
      expect(lines.find((line) => line.msg.startsWith("stopped"))?.cut).toBe(0);
      console.log(
        `drain: /readyz 503 ${flippedAfter} ms after SIGTERM, listener open ${DRAIN} ms, exit 0 after ${stoppedAfter} ms`,
      );
    } finally {
      agent.destroy();
    }
  });

  it("a request still open past SHUTDOWN_TIMEOUT_MS is cut: exit 1, one line saying how many", async () => {
    const TIMEOUT = 500;
    const { url, child, exited, output } = await startApi({
      SHUTDOWN_TIMEOUT_MS: String(TIMEOUT),
      REQUEST_TIMEOUT_MS: "20000",
    });
    const { port } = new URL(url);
    // A create whose body never finishes arriving.
    const socket = net.connect(Number(port), "127.0.0.1");
    try {
      socket.on("error", () => {});
      socket.write(
        `POST /v1/pets HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
      );
      await sleep(300);
      const signalledAt = Date.now();
      child.kill("SIGTERM");
      expect(await exited).toEqual({ code: 1, signal: null });
      expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(TIMEOUT);
      expect(Date.now() - signalledAt).toBeLessThan(TIMEOUT + 2_000);
      const cut = output()
        .split("\n")
        .filter((line) => line.includes("cut;"));
      expect(cut).toHaveLength(1);
      expect(cut[0]).toContain("1 request(s) cut");
    } finally {
      socket.destroy();
    }
  });

  it("a second signal during the drain exits 1 at once", async () => {
    const { child, exited, output } = await startApi({ SHUTDOWN_DRAIN_MS: "20000", LOG_LEVEL: "info" });
    child.kill("SIGTERM");
    // The log is written in batches, and a loaded CI machine can take over a second (expect.poll's default) to
    // flush it; the drain itself lasts 20 s.
    await expect.poll(output, { timeout: 10_000 }).toContain("shutting down");
    const secondAt = Date.now();
    child.kill("SIGINT");
    expect(await exited).toEqual({ code: 1, signal: null });
    expect(Date.now() - secondAt).toBeLessThan(1_000);
    expect(output()).toContain("second signal (SIGINT): exiting at once");
  });
});
