import { PassThrough } from "node:stream";
import type { WebhookEventType } from "../activity/event-types.js";
import { comparePositions, LOGGED_TYPES, type EventLog, type EventPosition, type StreamedEvent } from "./event-log.js";

/** How often the log is read while a stream is open: an event committed on any replica reaches every stream within about this (plus a read). */
export const STREAM_POLL_MS = 250;
/** A comment this often keeps proxies and clients from taking a quiet stream for a dead one. */
export const STREAM_HEARTBEAT_MS = 15_000;
/** How often each stream's credential is asked again (a revoked key ends it within this plus the key set's age). */
export const STREAM_CREDENTIAL_CHECK_MS = 500;
/** Events read from the log at a time, by the reader and a replay. */
const READ_PAGE = 1_000;
/** The `retry:` a stream ends with, so its client reconnects (through the balancer, to a ready replica) soon. */
export const STREAM_RETRY_MS = 1_000;

/** Whether a stream's credential still holds: false ends the stream. */
export type CredentialCheck = () => Promise<boolean> | boolean;

export interface OpenStream {
  /** The `text/event-stream` body to answer with. */
  body: PassThrough;
}

export interface StreamRequest {
  /** `Last-Event-ID`: replay what came after it first. Undefined: from now on. */
  lastEventId: EventPosition | undefined;
  types: readonly WebhookEventType[];
  stillValid: CredentialCheck;
  /** The issued key the stream's credential is (or whose session token it is): its `key.revoked` event ends the stream at once. */
  issuedKeyId: number | undefined;
  /** Told once, when the stream ends, with how long it lasted and how many events it sent. */
  onEnd: (summary: { durationMs: number; eventsSent: number; reason: string }) => void;
}

export type StreamRefusal = "full" | "draining";

interface Stream {
  body: PassThrough;
  types: ReadonlySet<WebhookEventType>;
  /** Its types, sorted and joined: the streams that stand at one position share a batch per key. */
  typesKey: string;
  /** The last position sent (or skipped as another type): the next event sent is after it. */
  at: EventPosition;
  /** Set while its replay runs: live events wait until it has caught up. */
  replaying: boolean;
  stillValid: CredentialCheck;
  issuedKeyId: number | undefined;
  onEnd: StreamRequest["onEnd"];
  openedAt: number;
  eventsSent: number;
  ended: boolean;
}

export interface EventStreams {
  /** A new stream, or why not: `full` (STREAM_MAX open here), `draining` (shutting down). */
  open(request: StreamRequest): Promise<OpenStream | StreamRefusal>;
  readonly openCount: number;
  /** From SIGTERM: new streams are refused. */
  stopAccepting(): void;
  /** At the drain window's end: every open stream ends with `retry:`, so clients reconnect elsewhere. */
  endAll(reason: string): void;
  close(): void;
}

export interface EventStreamsOptions {
  log: EventLog;
  max: number;
  pollMs?: number;
  heartbeatMs?: number;
  credentialCheckMs?: number;
  onOpenCountChanged?: (open: number) => void;
  onError?: (error: unknown) => void;
}

/**
 * The streams of this process (`streamEvents`, docs/decisions/053-one-event-log.md). One reader per
 * process follows the log while a stream is open, every `pollMs`, and hands each new event to the
 * streams that take its type: every replica reads the same log in the same order, so a stream on any of
 * them sees every event once, in order, within about `pollMs` of its commit. A stream opened with
 * `Last-Event-ID` first replays the log after it, then joins the live events where its replay ended.
 */
export function createEventStreams({
  log,
  max,
  pollMs = STREAM_POLL_MS,
  heartbeatMs = STREAM_HEARTBEAT_MS,
  credentialCheckMs = STREAM_CREDENTIAL_CHECK_MS,
  onOpenCountChanged,
  onError = () => {},
}: EventStreamsOptions): EventStreams {
  const streams = new Set<Stream>();
  let accepting = true;
  /** Where the reader stands: every event at or before it has been handed to the live streams. */
  let frontier: EventPosition | undefined;
  let reading: Promise<void> | undefined;
  let timers: NodeJS.Timeout[] = [];

  const changed = () => onOpenCountChanged?.(streams.size);

  const end = (stream: Stream, reason: string, retry: boolean) => {
    if (stream.ended) return;
    stream.ended = true;
    streams.delete(stream);
    changed();
    if (retry && !stream.body.writableEnded) stream.body.write(`retry: ${STREAM_RETRY_MS}\n\n`);
    stream.body.end();
    stream.onEnd({ durationMs: Date.now() - stream.openedAt, eventsSent: stream.eventsSent, reason });
    if (streams.size === 0) stopTimers();
  };

  /**
   * Hands `events` (in position order, read after `from`) to `to`: each stream gets those after its own
   * position of its types, in one write. Each event's message is made once; the streams that stand at
   * `from` (every live one) share one batch per set of types, so a hundred streams cost a hundred writes
   * per read of the log, not a hundred per event.
   */
  const deliver = (to: Iterable<Stream>, events: readonly StreamedEvent[], from: EventPosition) => {
    if (events.length === 0) return;
    const positions = events.map((event) => event.position);
    const messages = events.map((event) => event.message);
    const last = positions.at(-1)!;
    const shared = new Map<string, { text: string; count: number }>();
    const batchOf = (stream: Stream, after: EventPosition) => {
      const picked = messages.filter(
        (_, index) => stream.types.has(events[index]!.type) && comparePositions(positions[index]!, after) > 0,
      );
      return { text: picked.join(""), count: picked.length };
    };
    for (const stream of to) {
      let batch: { text: string; count: number };
      if (comparePositions(stream.at, from) === 0) {
        const known = shared.get(stream.typesKey);
        batch = known ?? batchOf(stream, from);
        if (!known) shared.set(stream.typesKey, batch);
      } else {
        batch = batchOf(stream, stream.at);
      }
      if (comparePositions(last, stream.at) > 0) stream.at = last;
      if (batch.count === 0) continue;
      stream.body.write(batch.text);
      stream.eventsSent += batch.count;
    }
  };

  /** Reads the log from the frontier to what is visible now, page by page, and hands the events out. */
  const readNew = async () => {
    if (frontier === undefined) return;
    for (;;) {
      const from = frontier;
      const page = await log.readStreamed({ after: from, types: LOGGED_TYPES, take: READ_PAGE });
      if (page.kind === "gone") {
        // The reader fell behind retention (a process paused for weeks): start again from what is kept.
        frontier = await log.frontier();
        return;
      }
      deliver(
        [...streams].filter((stream) => !stream.replaying),
        page.events,
        from,
      );
      // A key revoked on any replica ends its streams here as soon as its event is read, before the key set's next read.
      for (const { revokedKeyId } of page.events) {
        if (revokedKeyId === undefined) continue;
        for (const stream of streams) if (stream.issuedKeyId === revokedKeyId) end(stream, "credential", true);
      }
      frontier = page.next;
      for (const stream of streams)
        if (!stream.replaying && comparePositions(stream.at, frontier) < 0) stream.at = frontier;
      if (page.events.length < READ_PAGE) return;
    }
  };

  const tick = () => {
    if (reading) return;
    reading = readNew()
      .catch(onError)
      .finally(() => (reading = undefined));
  };

  const checkCredentials = () => {
    for (const stream of streams) {
      Promise.resolve(stream.stillValid())
        .then((valid) => {
          if (!valid) end(stream, "credential", true);
        })
        .catch(onError);
    }
  };

  const startTimers = () => {
    if (timers.length > 0) return;
    timers = [
      setInterval(tick, pollMs),
      setInterval(() => {
        for (const stream of streams) stream.body.write(": keep-alive\n\n");
      }, heartbeatMs),
      setInterval(checkCredentials, credentialCheckMs),
    ];
    for (const timer of timers) timer.unref();
  };
  const stopTimers = () => {
    for (const timer of timers) clearInterval(timer);
    timers = [];
  };

  /**
   * Replays the log after the stream's `Last-Event-ID`, then joins the live events. Sending skips what is
   * at or before the stream's position, so the replay may read past the reader and the reader may go over
   * what the replay sent: each event is sent once. It joins only when, after a read, it stands at or past
   * the reader (checked in the same turn as it joins): nothing the reader handed out meanwhile is lost.
   */
  const replay = async (stream: Stream) => {
    for (;;) {
      const page = await log.readStreamed({ after: stream.at, types: [...stream.types], take: READ_PAGE });
      if (stream.ended) return;
      if (page.kind === "gone") {
        stream.body.write(
          `event: gone\ndata: ${JSON.stringify({ message: "Events after Last-Event-ID were purged; start again without it." })}\n\n`,
        );
        return end(stream, "gone", false);
      }
      deliver([stream], page.events, stream.at);
      if (comparePositions(page.next, stream.at) > 0) stream.at = page.next;
      if (page.events.length < READ_PAGE && comparePositions(stream.at, frontier!) >= 0) {
        stream.replaying = false;
        return;
      }
      if (page.events.length < READ_PAGE) await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };

  return {
    get openCount() {
      return streams.size;
    },
    async open({ lastEventId, types, stillValid, issuedKeyId, onEnd }) {
      if (!accepting) return "draining";
      if (streams.size >= max) return "full";
      if (frontier === undefined) frontier = await log.frontier();
      const body = new PassThrough();
      const stream: Stream = {
        body,
        types: new Set(types),
        typesKey: [...new Set(types)].sort().join(","),
        at: lastEventId ?? frontier,
        replaying: lastEventId !== undefined,
        stillValid,
        issuedKeyId,
        onEnd,
        openedAt: Date.now(),
        eventsSent: 0,
        ended: false,
      };
      streams.add(stream);
      changed();
      startTimers();
      // The client went away (or the response was cut): the stream ends with it.
      body.on("close", () => end(stream, "client", false));
      body.write(`retry: ${STREAM_RETRY_MS}\n\n`);
      if (lastEventId !== undefined) replay(stream).catch((error) => (onError(error), end(stream, "error", true)));
      return { body };
    },
    stopAccepting() {
      accepting = false;
    },
    endAll(reason) {
      for (const stream of [...streams]) end(stream, reason, true);
    },
    close() {
      accepting = false;
      for (const stream of [...streams]) end(stream, "closed", true);
      stopTimers();
    },
  };
}
