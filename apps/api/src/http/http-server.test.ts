import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { ErrorBody } from "@petstore/contract";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpServer } from "./http-server.js";
import { createTestApp, type TestApp } from "../test/test-app.js";

let t: TestApp | undefined;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  await t?.close();
  t = undefined;
  close = undefined;
});

async function listen(requestTimeoutMs = 10_000) {
  t = await createTestApp();
  const server = createHttpServer(t.app, { requestTimeoutMs });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  close = () => new Promise((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  return (server.address() as AddressInfo).port;
}

/** Sends raw bytes and returns everything the server writes until it closes the connection. */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString()));
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
    socket.write(bytes);
  });
}

function parseResponse(raw: string) {
  const [head = "", body = ""] = raw.split("\r\n\r\n");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  return { status, head, body: ErrorBody.parse(JSON.parse(body)) };
}

describe("what Node rejects before the app is answered with the Error JSON", () => {
  it("400 for bytes that are not HTTP", async () => {
    const port = await listen();
    const { status, head, body } = parseResponse(await exchange(port, "HELLO THERE\r\n\r\n"));
    expect(status).toBe(400);
    expect(head).toMatch(/content-type: application\/json/i);
    expect(body).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
  });

  it("431 for headers over Node's limit", async () => {
    const port = await listen();
    const raw = await exchange(port, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    const { status, body } = parseResponse(raw);
    expect(status).toBe(431);
    expect(body).toMatchObject({ code: "PAYLOAD_TOO_LARGE", status: 431 });
  });

  it("408 when the request does not arrive in full within REQUEST_TIMEOUT_MS", async () => {
    const port = await listen(500);
    const startedAt = Date.now();
    const { status, body } = parseResponse(await exchange(port, "GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthoriz"));
    expect(status).toBe(408);
    expect(body).toMatchObject({ code: "REQUEST_TIMEOUT", status: 408 });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(450);
  });
});

describe("keep-alive", () => {
  it("an idle keep-alive connection is closed after keepAliveTimeoutMs; headersTimeoutMs is the server's", async () => {
    t = await createTestApp();
    const server = createHttpServer(t.app, {
      requestTimeoutMs: 10_000,
      headersTimeoutMs: 4_000,
      keepAliveTimeoutMs: 300,
    });
    expect(server.headersTimeout).toBe(4_000);
    expect(server.keepAliveTimeout).toBe(300);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString()));
    const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())));
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    await expect.poll(() => received).toContain('{"status":"ok"}');
    const answeredAt = Date.now();
    expect(received).toMatch(/keep-alive/i);
    const idleFor = (await closed) - answeredAt;
    expect(idleFor).toBeGreaterThanOrEqual(250);
    expect(idleFor).toBeLessThan(2_000);
  });
});
