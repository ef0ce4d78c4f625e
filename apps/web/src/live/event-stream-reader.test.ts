import type { Event } from "@petstore/contract";
import { describe, expect, it } from "vitest";
import { createLiveEvents } from "./event-stream-reader.js";

const event = (position: string, name: string): Event => ({
  id: `msg_${position.replace("-", "")}`,
  position,
  type: "pet.created",
  timestamp: "2026-11-29T10:00:00.000Z",
  data: { id: 1, name, categoryId: 1 },
});
const message = (e: Event) => `id: ${e.position}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;

/** A server that answers each connection in turn: a status, and the messages of a stream that then ends. */
function scriptedServer(answers: Array<{ status: number; body?: string }>) {
  const requests: Array<{ authorization: string | null; lastEventId: string | null }> = [];
  const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    requests.push({ authorization: headers.get("authorization"), lastEventId: headers.get("last-event-id") });
    const answer = answers.shift();
    if (!answer) return new Promise<Response>(() => {}); // the last stream stays open
    return new Response(answer.body ?? null, {
      status: answer.status,
      headers: { "content-type": "text/event-stream" },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

const noWait = async () => {};

describe("the live events reader", () => {
  it("reconnects after a stream ends with the next token and Last-Event-ID, renewing a refused token once", async () => {
    const server = scriptedServer([
      { status: 200, body: `retry: 1000\n\n${message(event("0-1", "Rex"))}${message(event("0-2", "Tom"))}` },
      { status: 401 },
      { status: 200, body: message(event("0-3", "Ada")) },
    ]);
    const seen: string[] = [];
    const tokens = ["pst_first", "pst_second"];
    const live = createLiveEvents({
      url: "/v1/events/stream",
      token: async () => tokens[0]!,
      renew: async (refused) => {
        expect(refused).toBe("pst_first");
        tokens.shift();
        return tokens[0]!;
      },
      onEvent: (e) => seen.push((e.data as { name: string }).name),
      fetch: server.fetch,
      sleep: noWait,
    });
    live.start();
    await expect.poll(() => seen).toEqual(["Rex", "Tom", "Ada"]);
    expect(server.requests.map((request) => [request.authorization, request.lastEventId])).toEqual([
      ["Bearer pst_first", null],
      ["Bearer pst_first", "0-2"],
      ["Bearer pst_second", "0-2"],
      ["Bearer pst_second", "0-3"],
    ]);
    live.stop();
  });

  it("stopped (a tab in the background), then started again, catches up from the last event it saw", async () => {
    const server = scriptedServer([{ status: 200, body: message(event("0-7", "Rex")) }]);
    const live = createLiveEvents({
      url: "/v1/events/stream",
      token: async () => "pst_t",
      renew: async () => "pst_t",
      onEvent: () => {},
      fetch: server.fetch,
      sleep: noWait,
    });
    live.start();
    await expect.poll(() => live.lastEventId).toBe("0-7");
    live.stop();
    const before = server.requests.length;
    live.start();
    await expect.poll(() => server.requests.length).toBeGreaterThan(before);
    expect(server.requests.at(-1)!.lastEventId).toBe("0-7");
    live.stop();
  });

  it("waits out a 503's Retry-After, and after a 410 starts again from now", async () => {
    const waits: number[] = [];
    const server = scriptedServer([{ status: 503 }, { status: 410 }]);
    const live = createLiveEvents({
      url: "/v1/events/stream",
      token: async () => "pst_t",
      renew: async () => "pst_t",
      onEvent: () => {},
      fetch: async (url, init) => {
        const answer = await server.fetch(url, init);
        return answer.status === 503 ? new Response(null, { status: 503, headers: { "retry-after": "3" } }) : answer;
      },
      sleep: async (ms) => void waits.push(ms),
    });
    live.start();
    await expect.poll(() => server.requests.length).toBe(3);
    expect(waits).toEqual([3_000]);
    expect(server.requests.at(-1)!.lastEventId).toBeNull();
    live.stop();
  });
});
