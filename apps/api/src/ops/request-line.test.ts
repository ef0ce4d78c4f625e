import { multistream, pino, type Logger, type LoggerOptions } from "pino";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.js";
import { REQUEST_LINE_MESSAGE, requestLineWriter, type RequestLine } from "./request-line.js";

/** A logger as the app makes it (production JSON), writing into `lines`. */
const capturing = (lines: string[]): Logger =>
  createLogger({ logLevel: "info", nodeEnv: "production" }, { write: (line: string) => void lines.push(line) });

/** Two lines written a moment apart compare whole once their times are the same. */
const withoutTime = (line: string) => line.replace(/,"time":\d+/, ',"time":0');

const LINES: RequestLine[] = [
  { id: "0b4c1c8e-6a55-4d2e-9a86-3f0f1f1f1f1f", method: "GET", url: "/v1/pets/7", statusCode: 200, responseTime: 3 },
  { id: "a", method: "POST", url: "/v1/pets?name=%22quoted%22", statusCode: 201, responseTime: 0 },
  { id: "b", method: "GET", url: '/v1/pets?name="raw quotes"&x=\\back\\slash', statusCode: 404, responseTime: 12 },
  {
    id: "c",
    method: "GET",
    url: "/v1/pets?name=Fídó🐶&tab=\t&nul=\u0000&del=\u007f&ls=\u2028",
    statusCode: 422,
    responseTime: 1234,
  },
  { id: "d", method: "DELETE", url: `/v1/${"long/".repeat(40)}`, statusCode: 405, responseTime: 1 },
];

describe("requestLineWriter: the request line as pino writes it", () => {
  it.each(LINES)("writes $method $url $statusCode byte for byte as logger[level]() does", (line) => {
    const ours: string[] = [];
    const theirs: string[] = [];
    const level = line.statusCode >= 400 ? "warn" : "info";
    // The app writes request lines through a child without redaction (request-logging.ts): the same here.
    const write = requestLineWriter(capturing(ours).child({}, { redact: { paths: [] } }));
    if (!write) return expect.fail("the app's own logger configuration must get the direct writer");
    write(level, line);
    const { id, method, url, statusCode, responseTime } = line;
    const pinoLines = capturing(theirs).child({}, { redact: { paths: [] } });
    pinoLines[level]({ req: { id, method, url }, res: { statusCode }, responseTime }, REQUEST_LINE_MESSAGE);
    expect(ours).toHaveLength(1);
    expect(withoutTime(ours[0]!)).toBe(withoutTime(theirs[0]!));
    expect(ours[0]).toMatch(/^\{"level":\d+,"time":\d+,/);
  });

  it("carries a child logger's bindings, as pino does", () => {
    const ours: string[] = [];
    const theirs: string[] = [];
    const line = LINES[0]!;
    requestLineWriter(capturing(ours).child({ replica: "b", quote: '"' }))!("info", line);
    capturing(theirs)
      .child({ replica: "b", quote: '"' })
      .info(
        {
          req: { id: line.id, method: line.method, url: line.url },
          res: { statusCode: line.statusCode },
          responseTime: line.responseTime,
        },
        REQUEST_LINE_MESSAGE,
      );
    expect(withoutTime(ours[0]!)).toBe(withoutTime(theirs[0]!));
    expect(JSON.parse(ours[0]!)).toMatchObject({ service: "petstore-api", replica: "b", quote: '"' });
  });

  it.each([
    ["a mixin", { mixin: () => ({ extra: 1 }) }],
    ["a log formatter", { formatters: { log: (object: Record<string, unknown>) => object } }],
    [
      "a logMethod hook",
      {
        hooks: {
          logMethod: function (this: Logger, args: Parameters<Logger["info"]>, method: Logger["info"]) {
            method.apply(this, args);
          },
        },
      },
    ],
    ["a streamWrite hook", { hooks: { streamWrite: (line: string) => line } }],
    ["another message key", { messageKey: "message" }],
    ["a message prefix", { msgPrefix: "[api] " }],
  ])("is not offered for a logger with %s: the caller writes through pino", (_what, options) => {
    expect(requestLineWriter(pino(options as LoggerOptions, { write: () => {} }))).toBeUndefined();
  });

  it("is not offered for a destination that reads each line's metadata (pino.multistream)", () => {
    expect(requestLineWriter(pino({}, multistream([{ stream: { write: () => {} } }])))).toBeUndefined();
  });
});
