import type { Event } from "@petstore/contract";

/** One Server-Sent Events message: the fields this API sends. */
export interface StreamMessage {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
}

/**
 * Splits a `text/event-stream` into messages as its chunks arrive (the standard's parsing, for the
 * fields this API sends: `id`, `event`, `data`, `retry`; a line starting `:` is a comment).
 */
export function createStreamParser(onMessage: (message: StreamMessage) => void): (chunk: string) => void {
  let buffer = "";
  return (chunk) => {
    buffer += chunk.replace(/\r\n?/g, "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const message: StreamMessage = {};
      for (const line of block.split("\n")) {
        if (line === "" || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") message.data = message.data === undefined ? value : `${message.data}\n${value}`;
        else if (field === "id" || field === "event") message[field] = value;
        else if (field === "retry" && /^\d+$/.test(value)) message.retry = Number(value);
      }
      if (Object.keys(message).length > 0) onMessage(message);
    }
  };
}

export interface LiveEventsOptions {
  /** `/v1/events/stream` with its query, under the API's origin. */
  url: string;
  /** The session's token, and a renewed one when the API refuses it. */
  token: () => Promise<string>;
  renew: (refused: string) => Promise<string>;
  onEvent: (event: Event) => void;
  /** Seconds to wait before asking again when nothing said otherwise. */
  fallbackRetryMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Reads the event stream for as long as it is started: read with `fetch`, since the bearer cannot go
 * on an `EventSource`. When the stream ends (its credential, the replica shutting down) or fails, it
 * connects again after the server's `retry:` (or `Retry-After`), with the session's next token and
 * `Last-Event-ID`, so nothing is missed; `pause` closes it (a tab in the background) and `resume`
 * catches up from where it was.
 */
export function createLiveEvents({
  url,
  token,
  renew,
  onEvent,
  fallbackRetryMs = 5_000,
  fetch: fetchImpl = fetch,
  sleep = abortableSleep,
}: LiveEventsOptions) {
  let lastEventId: string | undefined;
  let running: AbortController | undefined;
  let retryMs = 1_000;

  const readOnce = async (
    signal: AbortSignal,
    bearerToken: string,
  ): Promise<"again" | { refused: string } | { waitMs: number }> => {
    const response = await fetchImpl(url, {
      headers: {
        Authorization: `Bearer ${bearerToken}`,
        Accept: "text/event-stream",
        ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}),
      },
      signal,
    });
    if (response.status === 401) return { refused: bearerToken };
    if (response.status === 410) {
      // What it missed was purged: go on from now (the lists refetch on the next event anyway).
      lastEventId = undefined;
      return "again";
    }
    if (!response.ok || !response.body) {
      const after = Number(response.headers.get("retry-after"));
      return { waitMs: Number.isFinite(after) && after > 0 ? after * 1_000 : fallbackRetryMs };
    }
    const decoder = new TextDecoder();
    const parse = createStreamParser((message) => {
      if (message.retry !== undefined) retryMs = message.retry;
      if (message.id !== undefined) lastEventId = message.id;
      if (message.data !== undefined && message.event !== undefined && message.event !== "gone")
        onEvent(JSON.parse(message.data) as Event);
    });
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { waitMs: retryMs };
      parse(decoder.decode(value, { stream: true }));
    }
  };

  const run = async (controller: AbortController) => {
    let current = await token();
    while (!controller.signal.aborted) {
      try {
        const outcome = await readOnce(controller.signal, current);
        if (outcome === "again") continue;
        if ("refused" in outcome) current = await renew(outcome.refused);
        else await sleep(outcome.waitMs, controller.signal);
        if ("waitMs" in outcome) current = await token();
      } catch {
        if (controller.signal.aborted) return;
        // A network failure, or a session that ended (the app goes to sign-in by itself): wait, then try again.
        await sleep(fallbackRetryMs, controller.signal);
        current = await token().catch(() => current);
      }
    }
  };

  return {
    start() {
      if (running) return;
      const controller = new AbortController();
      running = controller;
      void run(controller);
    },
    /** Closes the stream; `start` again catches up from the last event seen. */
    stop() {
      running?.abort();
      running = undefined;
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}
