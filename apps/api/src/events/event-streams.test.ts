import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { createApp, createAppEventStreams } from "../app.js";
import { execute, sql } from "../data/sql-work.js";
import { purgeExpired } from "../maintenance/retention.js";
import { createLogger } from "../ops/logger.js";
import { bearer, createTestApp, TEST_PROVIDERS, untilEventsVisible, type TestApp } from "../test/test-app.js";

const running: TestApp[] = [];
const servers: Server[] = [];
const readers: SseClient[] = [];
afterEach(async () => {
  for (const reader of readers.splice(0)) reader.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  for (const t of running.splice(0)) await t.close();
});

async function start(provider: (typeof TEST_PROVIDERS)[number], env: Record<string, string> = {}) {
  const t = await createTestApp(env, provider);
  running.push(t);
  return t;
}

/** The app on a real port: a stream needs a response that stays open. */
async function listening(t: TestApp): Promise<string> {
  const server = t.app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
}

/** A Server-Sent Events reader over fetch (as the admin app reads one): the messages as they come, and the end. */
interface SseClient {
  status: number;
  headers: Headers;
  messages: SseMessage[];
  comments: number;
  ended: Promise<void>;
  /** Waits until `count` messages with `data:` have come, within `timeoutMs`; answers them. */
  events(count: number, timeoutMs?: number): Promise<SseMessage[]>;
  close(): void;
}

async function openStream(
  base: string,
  path: string,
  authorization: string,
  headers: Record<string, string> = {},
): Promise<SseClient> {
  const abort = new AbortController();
  const response = await fetch(`${base}${path}`, {
    headers: { Authorization: authorization, Accept: "text/event-stream", ...headers },
    signal: abort.signal,
  });
  const messages: SseMessage[] = [];
  let comments = 0;
  const ended = (async () => {
    if (!response.body || response.status !== 200) return;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: SseMessage = {};
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments++;
            const match = /^(id|event|data|retry): (.*)$/.exec(line);
            if (match) message[match[1] as keyof SseMessage] = match[2]!;
          }
          if (Object.keys(message).length > 0) messages.push(message);
        }
      }
    } catch {
      // Aborted by the test.
    }
  })();
  const client: SseClient = {
    status: response.status,
    headers: response.headers,
    messages,
    get comments() {
      return comments;
    },
    ended,
    async events(count, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const events = messages.filter((message) => message.data !== undefined);
        if (events.length >= count) return events;
        if (Date.now() > deadline)
          throw new Error(`expected ${count} events within ${timeoutMs} ms, got ${events.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => abort.abort(),
  };
  readers.push(client);
  return client;
}

const createPet = (t: TestApp, name: string) =>
  request(t.app).post("/v1/pets").set("Authorization", bearer()).send({ name, categoryId: 1 }).expect(201);

async function keyOfScope(t: TestApp, scope: "read" | "write" | "admin") {
  const issued = await request(t.app)
    .post("/admin/v1/keys")
    .set("Authorization", bearer())
    .send({ name: `A ${scope} key`, scope })
    .expect(201);
  return { id: issued.body.key.id as number, authorization: `Bearer ${issued.body.secret as string}` };
}

describe.each(TEST_PROVIDERS)("event streams (streamEvents) on %s", (provider) => {
  it("brings an event committed on one replica to a stream on another within 2 s, as id, event and data", async () => {
    const a = await start(provider);
    const b = await start(provider, { DATABASE_URL: a.config.databaseUrl });
    const stream = await openStream(await listening(b), "/v1/events/stream", bearer());
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(stream.headers.get("cache-control")).toBe("no-cache, no-transform");
    const created = Date.now();
    const rex = await createPet(a, "Rex");
    const [message] = await stream.events(1, 2_000);
    expect(Date.now() - created).toBeLessThan(2_000);
    expect(message!.event).toBe("pet.created");
    const event = JSON.parse(message!.data!) as { id: string; position: string; type: string; data: unknown };
    expect(event).toMatchObject({ type: "pet.created", data: rex.body, position: message!.id });
    expect(stream.messages[0]).toEqual({ retry: "1000" });
    // The feed answers the same event, with the same id and position.
    const feed = await request(a.app).get("/v1/events").set("Authorization", bearer()).expect(200);
    expect(feed.body).toContainEqual(event);
  });

  it("replays what came after Last-Event-ID, then goes on live, each event once and in order", async () => {
    const t = await start(provider);
    const base = await listening(t);
    const first = await openStream(base, "/v1/events/stream", bearer());
    await createPet(t, "One");
    await createPet(t, "Two");
    const [one] = await first.events(2);
    first.close();
    await createPet(t, "Three");
    // Another replica's client would resume the same way: the position is the log's, not the process's.
    const resumed = await openStream(base, "/v1/events/stream", bearer(), { "Last-Event-ID": one!.id! });
    const replayed = await resumed.events(2);
    expect(replayed.map((message) => (JSON.parse(message.data!) as { data: { name: string } }).data.name)).toEqual([
      "Two",
      "Three",
    ]);
    await createPet(t, "Four");
    const all = await resumed.events(3);
    expect(all.map((message) => (JSON.parse(message.data!) as { data: { name: string } }).data.name)).toEqual([
      "Two",
      "Three",
      "Four",
    ]);
    // The query parameter does the same, for clients that cannot set the header.
    const byQuery = await openStream(base, `/v1/events/stream?lastEventId=${one!.id!}&types=pet.created`, bearer());
    expect((await byQuery.events(3)).map((message) => message.id)).toEqual(all.map((message) => message.id));
  });

  it("ends a stream on replica B within 2 s of its key's revocation on replica A, with a retry hint", async () => {
    const a = await start(provider);
    const b = await start(provider, { DATABASE_URL: a.config.databaseUrl });
    const key = await keyOfScope(a, "read");
    const stream = await openStream(await listening(b), "/v1/events/stream", key.authorization);
    expect(stream.status).toBe(200);
    await createPet(a, "Seen");
    await stream.events(1, 2_000);
    const revoked = Date.now();
    await request(a.app).post(`/admin/v1/keys/${key.id}/revoke`).set("Authorization", bearer()).expect(200);
    await stream.ended;
    expect(Date.now() - revoked).toBeLessThan(2_000);
    expect(stream.messages.at(-1)).toEqual({ retry: "1000" });
    // Reconnecting with the revoked key: 401, once B has reread its keys (within a second).
    const base = await listening(b);
    await expect
      .poll(async () => (await openStream(base, "/v1/events/stream", key.authorization)).status, { timeout: 2_000 })
      .toBe(401);
  });

  it("refuses key events to a read key (403), a malformed Last-Event-ID (400) and one behind retention (410)", async () => {
    const t = await start(provider);
    const base = await listening(t);
    const read = await keyOfScope(t, "read");
    expect((await openStream(base, "/v1/events/stream?types=key.created", read.authorization)).status).toBe(403);
    expect((await openStream(base, "/v1/events/stream", bearer(), { "Last-Event-ID": "12" })).status).toBe(400);
    const old = new Date(Date.now() - 40 * 86_400_000);
    await t.database.sql.transaction(function* () {
      for (const id of ["msg_old1", "msg_old2"])
        yield* execute(
          sql`INSERT INTO "Event" ("eventId", "type", "createdAt", "data") VALUES (${id}, 'pet.created', ${old}, '{"id":1,"name":"Old","categoryId":1}')`,
        );
    });
    await createPet(t, "New");
    await untilEventsVisible(t.database, 4);
    const [oldest] = (await request(t.app).get("/v1/events").set("Authorization", bearer()).expect(200)).body as Array<{
      position: string;
    }>;
    await t.database.webhooks.fanOut(200);
    await purgeExpired(t.database.sql, {
      activityMs: 400 * 86_400_000,
      deliveryMs: 30 * 86_400_000,
      eventMs: 30 * 86_400_000,
      idempotencyMs: 86_400_000,
      deletedPetMs: 30 * 86_400_000,
    });
    const gone = await openStream(base, "/v1/events/stream", bearer(), { "Last-Event-ID": oldest!.position });
    expect(gone.status).toBe(410);
  });
});

describe("event streams' credentials and metrics", () => {
  it("ends a stream when its key expires, and counts the open ones in petstore_event_streams_open", async () => {
    const t = await start("sqlite", { METRICS_TOKEN: "metrics-token-0123456789abcdef" });
    const base = await listening(t);
    const expiresAt = new Date(Date.now() + 1_500).toISOString();
    const issued = await request(t.app)
      .post("/admin/v1/keys")
      .set("Authorization", bearer())
      .send({ name: "Short-lived", scope: "read", expiresAt })
      .expect(201);
    const stream = await openStream(base, "/v1/events/stream", `Bearer ${issued.body.secret as string}`);
    expect(stream.status).toBe(200);
    const gauge = async () => {
      const text = (
        await request(t.app).get("/metrics").set("Authorization", "Bearer metrics-token-0123456789abcdef").expect(200)
      ).text;
      return Number(/^petstore_event_streams_open (\d+)$/m.exec(text)?.[1]);
    };
    expect(await gauge()).toBe(1);
    await stream.ended;
    expect(Date.now() - Date.parse(expiresAt)).toBeLessThan(2_000);
    expect(stream.messages.at(-1)).toEqual({ retry: "1000" });
    expect(await gauge()).toBe(0);
    // A stream's time is no request's latency: its 200 is left out of the response series.
    const scraped = (
      await request(t.app).get("/metrics").set("Authorization", "Bearer metrics-token-0123456789abcdef").expect(200)
    ).text;
    expect(scraped).not.toMatch(/operation="streamEvents",status="200"/);
    expect(scraped).toMatch(/operation="createKey",status="201"/);
    // Ended streams are logged once, with what they sent.
    expect(t.logs.filter((line) => line.includes("event stream ended (credential)"))).toHaveLength(1);
  });
});

describe("event streams' limits", () => {
  it("answers 503 with Retry-After past STREAM_MAX open streams, and takes a new one once one ends", async () => {
    const t = await start("sqlite", { STREAM_MAX: "1" });
    const base = await listening(t);
    const first = await openStream(base, "/v1/events/stream", bearer());
    expect(first.status).toBe(200);
    const refused = await fetch(`${base}/v1/events/stream`, { headers: { Authorization: bearer() } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(((await refused.json()) as { code: string }).code).toBe("UNAVAILABLE");
    first.close();
    await expect.poll(async () => (await openStream(base, "/v1/events/stream", bearer())).status).toBe(200);
  });
});

describe("event streams and the drain", () => {
  it("from the stop signal refuses new streams (503, Retry-After: 1); at the drain's end the open ones end with retry", async () => {
    const t = await start("sqlite");
    const stopState = { stopping: false };
    const eventStreams = createAppEventStreams(t.config, t.database, createLogger(t.config, { write: () => {} }));
    const app = createApp({
      config: t.config,
      logger: createLogger(t.config, { write: () => {} }),
      database: t.database,
      stopState,
      eventStreams,
    });
    const server = app.listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const open = await openStream(base, "/v1/events/stream", bearer());
    expect(eventStreams.openCount).toBe(1);
    stopState.stopping = true;
    const refused = await fetch(`${base}/v1/events/stream`, { headers: { Authorization: bearer() } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    eventStreams.endAll("shutdown");
    await open.ended;
    expect(open.messages.at(-1)).toEqual({ retry: "1000" });
    expect(eventStreams.openCount).toBe(0);
  });
});
