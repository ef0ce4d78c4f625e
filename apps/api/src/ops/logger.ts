import { destination as pinoDestination, pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";
import type { Config } from "../base/env.js";

/**
 * Development logs are for a person: one line per request
 * (`GET /v1/pets 200 3ms`), whatever stdout is. `turbo dev` runs the API
 * without a terminal (its output is piped through turbo's prefixer), so a TTY
 * check would print raw JSON exactly where people read the log. Colours only
 * at a terminal. Production and tests are always JSON lines, which log
 * pipelines read; the built API the tests and Playwright start runs as production.
 */
export function usePrettyLogs(nodeEnv: Config["nodeEnv"]): boolean {
  return nodeEnv === "development";
}

/** pino-pretty in a worker thread; its options must be serialisable, so the format is a template. */
export const PRETTY_TRANSPORT = {
  target: "pino-pretty",
  options: {
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname,service,req,res,responseTime",
    // Request lines (request-logging.ts) carry req/res: print them as one line instead of nested objects.
    messageFormat: "{if req.method}{req.method} {req.url} {res.statusCode} {responseTime}ms {end}{msg}",
    singleLine: true,
  },
};

/**
 * Production JSON lines are written to stdout in batches of at least this many
 * bytes: one `write` per batch instead of one per line, a syscall per request
 * saved. A SIGKILL loses what the batch holds: fewer than this many bytes,
 * at most 18 request lines (the shortest, a 200 without a query, is about 220 bytes). A graceful stop, an
 * uncaught error and `process.exit` write it out first (see docs/decisions/030-batched-logs-and-one-response-listener.md).
 */
export const LOG_BATCH_BYTES = 4096;

/** A quiet process's lines still reach the log within this long: the batch is written out at least this often. */
export const LOG_FLUSH_INTERVAL_MS = 1_000;

/**
 * stdout, batched (`LOG_BATCH_BYTES`, `LOG_FLUSH_INTERVAL_MS`). Synchronous
 * writes, so the batch is all that a kill can lose (an asynchronous
 * destination would also lose the batch being written); written out when
 * the process exits, however it exits short of a signal it does not handle.
 */
export function batchedStdout(): DestinationStream {
  const stdout = pinoDestination({
    dest: 1,
    sync: true,
    minLength: LOG_BATCH_BYTES,
    periodicFlush: LOG_FLUSH_INTERVAL_MS,
  });
  process.once("exit", () => {
    try {
      stdout.flushSync();
    } catch {
      // stdout already closed: nothing more can be written anyway.
    }
  });
  return stdout;
}

export function createLogger(
  config: Pick<Config, "logLevel" | "nodeEnv">,
  destination?: DestinationStream,
  stdoutIsTty = process.stdout.isTTY === true,
): Logger {
  const options: LoggerOptions = {
    level: config.logLevel,
    base: { service: "petstore-api" },
    // Belt and braces: request serializers already drop headers.
    redact: { paths: ["req.headers.authorization", "headers.authorization", "authorization"], censor: "[redacted]" },
  };
  // A caller-given destination (the tests) always gets JSON.
  if (!destination && usePrettyLogs(config.nodeEnv)) {
    return pino({
      ...options,
      transport: { ...PRETTY_TRANSPORT, options: { ...PRETTY_TRANSPORT.options, colorize: stdoutIsTty } },
    });
  }
  return pino(options, destination ?? batchedStdout());
}
