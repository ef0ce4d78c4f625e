import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "pino";

export interface GracefulShutdownOptions {
  server: Server;
  logger: Logger;
  /** Past this, requests still open are cut and the process exits 1. */
  timeoutMs: number;
  /** Runs once the server has closed, before the exit (closing the database). */
  onClosed(): Promise<void>;
}

/**
 * On SIGTERM or SIGINT: stop taking connections, tell every unfinished
 * response `Connection: close` so its socket ends after it, finish the
 * in-flight requests, then close the database and exit 0.
 */
export function exitGracefullyOnSignals({ server, logger, timeoutMs, onClosed }: GracefulShutdownOptions): void {
  const unfinished = new Set<ServerResponse>();
  let stopping = false;
  server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
    if (stopping) res.setHeader("Connection", "close");
    unfinished.add(res);
    res.once("close", () => unfinished.delete(res));
  });

  function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    // Force the exit if a client holds a request open past the timeout.
    setTimeout(() => {
      logger.error("in-flight requests did not finish in time; exiting");
      process.exit(1);
    }, timeoutMs).unref();
    for (const res of unfinished) if (!res.headersSent) res.setHeader("Connection", "close");
    server.close(async () => {
      await onClosed();
      logger.info("stopped");
      process.exit(0);
    });
    server.closeIdleConnections();
  }
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}
