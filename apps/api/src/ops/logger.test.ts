import { Writable } from "node:stream";
import { pino } from "pino";
import { PinoPretty } from "pino-pretty";
import { describe, expect, it } from "vitest";
import { createLogger, PRETTY_TRANSPORT, usePrettyLogs } from "./logger.js";

describe("usePrettyLogs", () => {
  it.each([
    ["development", true, true],
    ["development", false, false],
    ["production", true, false],
    ["production", false, false],
    ["test", true, false],
  ] as const)("NODE_ENV=%s, stdout a TTY: %s -> %s", (nodeEnv, tty, pretty) => {
    expect(usePrettyLogs(nodeEnv, tty)).toBe(pretty);
  });
});

it("a caller-given destination gets JSON lines, even in development at a terminal", () => {
  const lines: string[] = [];
  const logger = createLogger({ nodeEnv: "development", logLevel: "info" }, { write: (line: string) => void lines.push(line) }, true);
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
    { req: { id: "r1", method: "GET", url: "/v1/pets?limit=2", headers: { authorization: "Bearer secret" } }, res: { statusCode: 200 }, responseTime: 3 },
    "request completed",
  );
  logger.warn({ attempt: 2 }, "database not ready");
  const [request, warning] = output.trimEnd().split("\n");
  expect(request).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v1\/pets\?limit=2 200 3ms request completed$/);
  expect(warning).toMatch(/WARN: database not ready \{"attempt":2\}$/);
  expect(output).not.toContain("secret");
});
