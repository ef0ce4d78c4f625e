import { symbols, type Logger } from "pino";

/** What an answered request's line says, beyond the logger's own fields. */
export interface RequestLine {
  id: string;
  method: string;
  /** As logged: `loggableUrl` of the original URL. */
  url: string;
  statusCode: number;
  /** Milliseconds, rounded. */
  responseTime: number;
}

/** Writes one request line at info or warn. */
export type RequestLineWriter = (level: "info" | "warn", line: RequestLine) => void;

export const REQUEST_LINE_MESSAGE = "request completed";

// The parts of a pino logger the line is assembled from. pino exports these symbols for this kind of use
// (`pino.symbols`); the equivalence test in request-line.test.ts checks the result against pino's own line.
type PinoInternals = Record<symbol, unknown> & Logger;

/**
 * The request line written as `logger[level]({ req, res, responseTime }, "request completed")` writes
 * it, byte for byte, without pino's generic path: that path walks the object's keys, looks up a
 * serialiser and a stringifier for each, JSON-stringifies the nested objects one by one and formats the
 * message, per request, for a line whose shape never changes. Here the line is one template string
 * over pino's own cached parts (the level's prefix, a level formatter's included; the time; the bindings) and goes to pino's own
 * destination, so batching, flushing and the crash bound (logger.ts) are unchanged.
 *
 * Undefined when the logger is configured in a way the template would not honour (a mixin, a log
 * formatter, hooks, another message key, a message prefix, a destination that reads each line's
 * metadata, such as pino.multistream): then the caller writes through pino.
 */
export function requestLineWriter(logger: Logger): RequestLineWriter | undefined {
  const pino = logger as PinoInternals;
  const formatters = pino[symbols.formattersSym] as { log?: unknown } | undefined;
  const hooks = pino[symbols.hooksSym] as { logMethod?: unknown; streamWrite?: unknown } | undefined;
  const stream = pino[symbols.streamSym] as { write?: (line: string) => void; [key: symbol]: unknown } | undefined;
  const levelPrefixes = pino[symbols.lsCacheSym] as Record<number, string> | undefined;
  if (
    pino[symbols.mixinSym] ||
    formatters?.log ||
    hooks?.logMethod ||
    hooks?.streamWrite ||
    pino[symbols.messageKeySym] !== "msg" ||
    // Not in pino's types, though pino.symbols holds it.
    typeof pino[(symbols as unknown as Record<string, symbol>)["msgPrefixSym"]!] === "string" ||
    pino[symbols.endSym] !== "}\n" ||
    typeof stream?.write !== "function" ||
    stream[symbols.needsMetadataGsym] === true ||
    levelPrefixes === undefined
  ) {
    return undefined;
  }
  const write = stream.write.bind(stream);
  const time = pino[symbols.timeSym] as () => string;
  const prefixOf = {
    info: levelPrefixes[logger.levels.values["info"]!],
    warn: levelPrefixes[logger.levels.values["warn"]!],
  };
  if (prefixOf.info === undefined || prefixOf.warn === undefined) return undefined;
  const suffix = `,"msg":${JSON.stringify(REQUEST_LINE_MESSAGE)}}\n`;
  return (level, { id, method, url, statusCode, responseTime }) => {
    // The bindings are read per line: a child logger's own are fixed, but pino lets `setBindings` change them.
    write(
      `${prefixOf[level]}${time.call(pino)}${pino[symbols.chindingsSym] as string},"req":{"id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"url":${JSON.stringify(url)}},"res":{"statusCode":${statusCode}},"responseTime":${responseTime}${suffix}`,
    );
  };
}
