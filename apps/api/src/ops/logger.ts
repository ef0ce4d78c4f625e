import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";
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
    return pino({ ...options, transport: { ...PRETTY_TRANSPORT, options: { ...PRETTY_TRANSPORT.options, colorize: stdoutIsTty } } });
  }
  return pino(options, destination);
}
