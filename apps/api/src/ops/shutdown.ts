import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "pino";

/**
 * Whether the process has begun to stop. From the moment it flips, `/readyz`
 * answers 503 and the `petstore_shutting_down` gauge reads 1, while the API
 * goes on answering everything else (see `drainThenClose`).
 */
export interface StopState {
  readonly stopping: boolean;
}

/** For an app no process stops (tests, tools). */
export const NEVER_STOPPING: StopState = { stopping: false };

export interface StopSwitch extends StopState {
  /** Flips `stopping` to true, for good. */
  stop(): void;
}

export function createStopSwitch(): StopSwitch {
  let stopping = false;
  return {
    get stopping() {
      return stopping;
    },
    stop() {
      stopping = true;
    },
  };
}

export interface GracefulShutdownOptions {
  server: Server;
  logger: Logger;
  /** Read by /readyz and the metrics; flipped first, at the signal. */
  stopSwitch: StopSwitch;
  /**
   * How long the process goes on accepting and answering after the signal,
   * with readiness already 503: longer than the load balancer's check
   * interval, so it has stopped sending requests here before the listener closes.
   */
  drainMs: number;
  /** Called when the drain window ends, before the listener closes (the event streams end then). */
  onDrainEnd?: () => void;
  /** After the drain, how long in-flight requests may take; past it they are cut and the process exits 1. */
  timeoutMs: number;
  /** Runs once the server has closed, before the exit (closing the database). */
  onClosed(): Promise<void>;
  /** `process.exit`, unless a test watches the exit code itself. */
  exit?: (code: number) => void;
}

export interface GracefulShutdown {
  /** Begins the shutdown (the first call only), naming why in the log. */
  begin(reason: string): void;
  /** Exits 1 at once, cutting whatever is in flight (a second signal). */
  abort(reason: string): void;
}

/**
 * The shutdown order a load balancer needs to lose no request (the one
 * @godaddy/terminus and http-terminator prescribe):
 * 1. readiness flips to 503 at once (`stopSwitch`);
 * 2. the listener stays open for `drainMs`, answering as usual, every response
 *    with `Connection: close` so pooled connections end after their answer;
 * 3. then the listener and the idle connections close;
 * 4. in-flight requests finish within `timeoutMs`, the database closes, exit 0;
 *    past the timeout, exit 1 with a line saying how many requests were cut.
 */
export function drainThenClose({
  server,
  logger,
  stopSwitch,
  drainMs,
  timeoutMs,
  onClosed,
  onDrainEnd,
  exit = (code) => process.exit(code),
}: GracefulShutdownOptions): GracefulShutdown {
  const unfinished = new Set<ServerResponse>();
  let answeredWhileStopping = 0;
  // First among the request listeners, so the header is set before a handler that answers at once has sent its headers.
  server.prependListener("request", (_req: IncomingMessage, res: ServerResponse) => {
    unfinished.add(res);
    // "close" fires once per response: `on` spares `once`'s wrapper on every request.
    res.on("close", () => unfinished.delete(res));
    if (!stopSwitch.stopping) return;
    res.setHeader("Connection", "close");
    res.once("finish", () => answeredWhileStopping++);
  });

  let exited = false;
  const exitOnce = (code: number) => {
    if (exited) return;
    exited = true;
    exit(code);
  };

  function closeListener() {
    onDrainEnd?.();
    logger.info(
      { answeredDuringDrain: answeredWhileStopping, inFlight: unfinished.size },
      `drain over: closing the listener and idle connections; finishing ${unfinished.size} in-flight request(s)`,
    );
    // Force the exit if a request is still open past the timeout.
    setTimeout(() => {
      logger.error(
        { answeredWhileStopping, cut: unfinished.size },
        `in-flight requests did not finish within ${timeoutMs} ms: ${unfinished.size} request(s) cut; exiting 1`,
      );
      exitOnce(1);
    }, timeoutMs).unref();
    server.close(async () => {
      await onClosed();
      logger.info(
        { answeredWhileStopping, cut: 0 },
        `stopped: ${answeredWhileStopping} request(s) answered while stopping, 0 cut`,
      );
      exitOnce(0);
    });
    server.closeIdleConnections();
  }

  return {
    begin(reason) {
      if (stopSwitch.stopping) return;
      stopSwitch.stop();
      logger.info(
        { reason, drainMs, timeoutMs },
        `shutting down (${reason}): readiness answers 503; draining for ${drainMs} ms`,
      );
      // Responses begun before the signal whose headers are still unsent close their connection too.
      for (const res of unfinished) {
        if (res.headersSent) continue;
        res.setHeader("Connection", "close");
        res.once("finish", () => answeredWhileStopping++);
      }
      // No drain: close in the same turn, so the listener is gone by the time the line above is read.
      if (drainMs === 0) closeListener();
      else setTimeout(closeListener, drainMs).unref(); // the open listener keeps the process up meanwhile
    },
    abort(reason) {
      logger.warn(
        { reason, cut: unfinished.size },
        `second signal (${reason}): exiting at once; ${unfinished.size} request(s) cut`,
      );
      exitOnce(1);
    },
  };
}

/** On SIGTERM or SIGINT: `drainThenClose`. A second signal exits at once. */
export function exitGracefullyOnSignals(options: GracefulShutdownOptions): void {
  const shutdown = drainThenClose(options);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => (options.stopSwitch.stopping ? shutdown.abort(signal) : shutdown.begin(signal)));
  }
}
