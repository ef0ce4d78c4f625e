import { Writable } from "node:stream";
import { pino } from "pino";
import { PinoPretty } from "pino-pretty";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startApiProcess, waitUntilReady, type ApiProcess } from "../test/api-process.js";
import { bearer, freshDatabase, TEST_KEY, type TestDatabase } from "../test/test-app.js";
import { createLogger, PRETTY_TRANSPORT, usePrettyLogs } from "./logger.js";

describe("usePrettyLogs", () => {
  it.each([
    ["development", true],
    ["production", false],
    ["test", false],
  ] as const)(
    "NODE_ENV=%s -> readable lines: %s (a TTY or not: turbo dev pipes the API's output)",
    (nodeEnv, pretty) => {
      expect(usePrettyLogs(nodeEnv)).toBe(pretty);
    },
  );
});

it("a caller-given destination gets JSON lines, even in development at a terminal", () => {
  const lines: string[] = [];
  const logger = createLogger(
    { nodeEnv: "development", logLevel: "info" },
    { write: (line: string) => void lines.push(line) },
    true,
  );
  logger.info("hello");
  expect(JSON.parse(lines[0]!)).toMatchObject({ msg: "hello", service: "petstore-api" });
});

it("the development format: a request is one readable line, without the key", () => {
  let output = "";
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  const pretty = PinoPretty({ ...PRETTY_TRANSPORT.options, colorize: false, destination, sync: true });
  const logger = pino({ base: { service: "petstore-api" } }, pretty);
  logger.info(
    {
      req: { id: "r1", method: "GET", url: "/v1/pets?limit=2", headers: { authorization: "Bearer secret" } },
      res: { statusCode: 200 },
      responseTime: 3,
    },
    "request completed",
  );
  logger.warn({ attempt: 2 }, "database not ready");
  const [request, warning] = output.trimEnd().split("\n");
  expect(request).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v1\/pets\?limit=2 200 3ms request completed$/);
  expect(warning).toMatch(/WARN: database not ready \{"attempt":2\}$/);
  expect(output).not.toContain("secret");
});

describe("the built API in development, its stdout piped (as turbo dev runs it)", () => {
  let api: ApiProcess | undefined;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await api?.stop();
    await database?.remove();
  });

  it("prints one readable line per request, not JSON, and never the key", async () => {
    database = await freshDatabase("sqlite");
    api = await startApiProcess({
      NODE_ENV: "development",
      LOG_LEVEL: "info",
      API_KEYS: TEST_KEY,
      DATABASE_URL: database.url,
    });
    await waitUntilReady(api);
    await fetch(`${api.url}/v1/pets?limit=2`, { headers: { Authorization: bearer() } });
    await vi.waitFor(() => expect(api!.output()).toMatch(/INFO: GET \/v1\/pets\?limit=2 200 \d+(\.\d+)?ms/), {
      timeout: 5_000,
    });
    const requestLine = api
      .output()
      .split("\n")
      .find((line) => line.includes("/v1/pets?limit=2"));
    expect(requestLine).not.toMatch(/^\s*\{/);
    expect(api.output()).not.toContain(TEST_KEY);
    expect(api.output()).not.toContain("\u001b["); // no colours without a terminal
  });
});
