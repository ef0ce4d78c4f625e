import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";
import type { Config } from "../env.js";

/**
 * Development logs are for a person at a terminal: one coloured line per
 * request (`GET /v1/pets 200 3ms`). Only when stdout is a TTY, though: piped
 * development output (to a file, `| jq`, a test harness, Playwright's web
 * server) stays JSON lines, which tools read. Production and tests are always
 * JSON, one line per request.
 */
export function usePrettyLogs(nodeEnv: Config["nodeEnv"], stdoutIsTty: boolean): boolean {
  return nodeEnv === "development" && stdoutIsTty;
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
  if (!destination && usePrettyLogs(config.nodeEnv, stdoutIsTty)) return pino({ ...options, transport: PRETTY_TRANSPORT });
  return pino(options, destination);
}
