import { pino, type DestinationStream, type Logger } from "pino";
import type { Config } from "./env.js";

export function createLogger(config: Pick<Config, "logLevel">, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { service: "petstore-api" },
      // Belt and braces: request serializers already drop headers.
      redact: { paths: ["req.headers.authorization", "headers.authorization", "authorization"], censor: "[redacted]" },
    },
    destination,
  );
}
