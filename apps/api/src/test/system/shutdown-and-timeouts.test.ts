/**
 * Process-level behaviour of the built API, over raw sockets so that each
 * byte's timing is the test's: graceful shutdown under load (SIGTERM finishes
 * accepted requests, refuses new connections, exits 0) and the request timeout
 * (a client that stalls mid-request is cut off).
 */
import net from "node:net";
import { ErrorBody, Pet, Pets } from "@petstore/contract";
import Sqlite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { sqliteFilePath } from "../../base/database-url.js";
import { oneApiProcessPerTest } from "../api-process.js";
import { TEST_KEY } from "../test-app.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { start: startApi, databaseUrl } = oneApiProcessPerTest();

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One keep-alive HTTP/1.1 connection driven byte by byte. */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiting: Array<() => void> = [];
  closed = false;
  error: Error | undefined;
  closedAt = 0;

  private constructor(readonly socket: net.Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on("error", (error) => (this.error = error));
    socket.on("close", () => {
      this.closed = true;
      this.closedAt = Date.now();
      this.wake();
    });
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  private wake() {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** The next complete response (Content-Length framed), or an error if the connection ends first. */
  async read(): Promise<RawAnswer> {
    for (;;) {
      const end = this.buffer.indexOf("\r\n\r\n");
      if (end >= 0) {
        const [statusLine = "", ...lines] = this.buffer.subarray(0, end).toString("latin1").split("\r\n");
        const headers = Object.fromEntries(
          lines.map((line) => [
            line.slice(0, line.indexOf(":")).toLowerCase(),
            line.slice(line.indexOf(":") + 1).trim(),
          ]),
        );
        const length = Number(headers["content-length"] ?? 0);
        if (this.buffer.length >= end + 4 + length) {
          const body = this.buffer.subarray(end + 4, end + 4 + length).toString("utf8");
          this.buffer = this.buffer.subarray(end + 4 + length);
          return { status: Number(statusLine.split(" ")[1]), headers, body };
        }
      }
      if (this.closed)
        throw new Error(`connection closed before a complete response${this.error ? `: ${this.error.message}` : ""}`);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }
}

const auth = `Authorization: Bearer ${TEST_KEY}\r\n`;
const listRequest = `GET /v1/pets?limit=100 HTTP/1.1\r\nHost: api\r\n${auth}\r\n`;
function createRequestParts(name: string): [string, string] {
  const body = JSON.stringify({ name, categoryId: 7, status: "pending" });
  const head = `POST /v1/pets HTTP/1.1\r\nHost: api\r\n${auth}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  const half = Math.floor(body.length / 2);
  return [head + body.slice(0, half), body.slice(half)];
}

describe("graceful shutdown", () => {
  it("SIGTERM under load: accepted requests complete, new connections are refused, exit code 0", async () => {
    const { url, child, exited, output } = await startApi({ LOG_LEVEL: "info" });
    // Pets to list, so that lists are real work.
    const seed = await RawConnection.open(url);
    for (let i = 0; i < 100; i++) {
      const [head, rest] = createRequestParts(`seed ${i}`);
      seed.write(head + rest);
      expect((await seed.read()).status).toBe(201);
    }

    // 30 connections each with a create whose body is half sent (in flight, stalled by the client),
    // 30 keep-alive connections streaming lists back to back, and 5 idle keep-alive connections.
    const IN_FLIGHT = 30;
    const stalled = await Promise.all(Array.from({ length: IN_FLIGHT }, () => RawConnection.open(url)));
    const streams = await Promise.all(Array.from({ length: 30 }, () => RawConnection.open(url)));
    const idle = await Promise.all(Array.from({ length: 5 }, () => RawConnection.open(url)));
    for (const connection of idle) {
      connection.write(listRequest);
      expect((await connection.read()).status).toBe(200);
    }
    const rests = stalled.map((connection, i) => {
      const [head, rest] = createRequestParts(`in flight ${i}`);
      connection.write(head);
      return rest;
    });
    let terminated = false;
    const listed = streams.map(async (connection) => {
      let answered = 0;
      for (;;) {
        connection.write(listRequest);
        let answer: RawAnswer;
        try {
          answer = await connection.read();
        } catch (error) {
          // Only a request written after SIGTERM, on a connection the server was closing, may go unanswered.
          if (terminated) return answered;
          throw error;
        }
        expect(answer.status).toBe(200);
        expect(Pets.parse(JSON.parse(answer.body)).length).toBe(100);
        answered++;
        if (answer.headers["connection"] === "close") return answered;
      }
    });
    await sleep(300); // every stalled request's headers are parsed: it is in flight

    const signalledAt = Date.now();
    terminated = true;
    child.kill("SIGTERM");
    while (!output().includes("shutting down")) await sleep(10);
    // The listening socket is closed: a new connection is refused.
    await expect(RawConnection.open(url)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    // Idle keep-alive connections were closed at once: their FIN reaches this side within moments (on a
    // loaded host not always by the time the refused connect above has come back; it failed CI once so).
    await expect
      .poll(() => idle.filter((connection) => !connection.closed).length, { timeout: 1_000, interval: 10 })
      .toBe(0);
    expect(child.exitCode).toBeNull(); // still finishing the stalled requests

    // The clients finish their bodies late; every one is answered in full, and told the connection closes.
    rests.forEach((rest, i) => stalled[i]?.write(rest));
    const answers = await Promise.all(stalled.map((connection) => connection.read()));
    for (const [i, answer] of answers.entries()) {
      expect(answer.status, answer.body).toBe(201);
      expect(Pet.parse(JSON.parse(answer.body))).toMatchObject({
        name: `in flight ${i}`,
        categoryId: 7,
        status: "pending",
      });
      expect(answer.headers["connection"]).toBe("close");
    }
    const lists = await Promise.all(listed);
    const exit = await exited;
    expect(exit).toEqual({ code: 0, signal: null });
    const stoppedWithin = Date.now() - signalledAt;

    const store = new Sqlite(sqliteFilePath(databaseUrl()), { readonly: true });
    const stored = store.prepare(`SELECT COUNT(*) AS n FROM "Pet" WHERE "name" LIKE 'in flight %'`).get() as {
      n: number;
    };
    store.close();
    expect(stored.n).toBe(IN_FLIGHT);
    console.log(
      `shutdown: ${IN_FLIGHT} in-flight creates answered 201 and stored, ${lists.reduce((a, b) => a + b, 0)} lists answered ` +
        `on 30 keep-alive connections, exit 0 ${stoppedWithin} ms after SIGTERM`,
    );
  }, 60_000);
});

describe("request timeout", () => {
  it("a client that sends headers and part of a body, then stalls, is cut off after REQUEST_TIMEOUT_MS", async () => {
    const TIMEOUT = 1_000;
    const { url } = await startApi({ REQUEST_TIMEOUT_MS: String(TIMEOUT) });
    const connection = await RawConnection.open(url);
    const [head] = createRequestParts("stalled");
    const sentAt = Date.now();
    connection.write(head);
    // The server answers 408 with the Error JSON (when no handler has answered yet) and closes the connection.
    const answer = await connection.read().catch(() => undefined);
    if (answer) {
      expect(answer.status).toBe(408);
      expect(ErrorBody.parse(JSON.parse(answer.body)).code).toBe("REQUEST_TIMEOUT");
    }
    while (!connection.closed) await sleep(20);
    const cutOffAfter = connection.closedAt - sentAt;
    expect(cutOffAfter).toBeGreaterThanOrEqual(TIMEOUT - 50);
    expect(cutOffAfter).toBeLessThan(TIMEOUT + 2_500);
    // The server is fine afterwards, and nothing was stored.
    const response = await fetch(`${url}/v1/pets`, { headers: { Authorization: `Bearer ${TEST_KEY}` } });
    expect(Pets.parse(await response.json())).toEqual([]);
    console.log(
      `request timeout: a stalled request was cut off after ${cutOffAfter} ms (REQUEST_TIMEOUT_MS=${TIMEOUT})`,
    );
  }, 60_000);

  it("a client that stalls in the middle of its headers is cut off too", async () => {
    const TIMEOUT = 1_000;
    const { url } = await startApi({ REQUEST_TIMEOUT_MS: String(TIMEOUT) });
    const connection = await RawConnection.open(url);
    const sentAt = Date.now();
    connection.write(`GET /v1/pets HTTP/1.1\r\nHost: api\r\nAuthoriz`);
    while (!connection.closed) await sleep(20);
    expect(connection.closedAt - sentAt).toBeLessThan(TIMEOUT + 2_500);
  }, 60_000);
});
