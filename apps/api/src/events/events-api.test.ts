import { Events, type Event } from "@petstore/contract";
import pg from "pg";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { execute, sql } from "../data/sql-work.js";
import { purgeExpired } from "../maintenance/retention.js";
import { expectError } from "../test/expect-error.js";
import { POSTGRES_ADMIN_URL } from "../test/postgres-admin.js";
import { bearer, createTestApp, TEST_PROVIDERS, untilEventsVisible, type TestApp } from "../test/test-app.js";
import { createEventLog, decodePosition, LOGGED_TYPES } from "./event-log.js";

const DAY = 86_400_000;
const running: TestApp[] = [];
afterEach(async () => {
  for (const t of running.splice(0)) await t.close();
});

async function start(provider: (typeof TEST_PROVIDERS)[number]) {
  const t = await createTestApp({}, provider);
  running.push(t);
  return t;
}

async function keyOfScope(t: TestApp, scope: "read" | "write" | "admin") {
  const issued = await request(t.app)
    .post("/admin/v1/keys")
    .set("Authorization", bearer())
    .send({ name: `A ${scope} key`, scope })
    .expect(201);
  return `Bearer ${issued.body.secret as string}`;
}

const createPet = (t: TestApp, name: string) =>
  request(t.app).post("/v1/pets").set("Authorization", bearer()).send({ name, categoryId: 1 }).expect(201);

/** The path and query of a `Link: <...>; rel="next"`. */
function nextLink(response: request.Response): string {
  const match = /^<([^>]+)>; rel="next"$/.exec(String(response.headers["link"]));
  expect(match, `Link: ${response.headers["link"]}`).not.toBeNull();
  return match![1]!;
}

/** Follows `Link rel="next"` from `path` until a page comes back empty; answers every event seen and the link to poll next. */
async function pollAll(t: TestApp, path: string, authorization = bearer()): Promise<{ events: Event[]; next: string }> {
  const events: Event[] = [];
  for (;;) {
    const response = await request(t.app).get(path).set("Authorization", authorization).expect(200);
    const page = Events.parse(response.body);
    path = nextLink(response);
    if (page.length === 0) return { events, next: path };
    events.push(...page);
  }
}

describe.each(TEST_PROVIDERS)("the event feed (listEvents) on %s", (provider) => {
  it("answers the events oldest first, as the webhooks carry them, and a Link on every page that never repeats nor skips one", async () => {
    const t = await start(provider);
    const first = await pollAll(t, "/v1/events?limit=2");
    expect(first.events).toEqual([]);
    const rex = await createPet(t, "Rex");
    await createPet(t, "Tom");
    await createPet(t, "Ada");
    await request(t.app)
      .patch(`/v1/pets/${rex.body.id}`)
      .set("Authorization", bearer())
      .send([{ op: "replace", path: "/status", value: "sold" }])
      .expect(200);
    await untilEventsVisible(t.database, 4);

    // The empty page's link picks up exactly what happened since, two at a time.
    const { events, next } = await pollAll(t, first.next);
    expect(events.map((event) => event.type)).toEqual(["pet.created", "pet.created", "pet.created", "pet.updated"]);
    expect(events[0]).toEqual({
      id: expect.stringMatching(/^msg_/),
      position: expect.any(String),
      type: "pet.created",
      timestamp: expect.any(String),
      data: { id: rex.body.id, name: "Rex", categoryId: 1 },
    });
    expect(events[3]!.data).toEqual({
      pet: { id: rex.body.id, name: "Rex", categoryId: 1, status: "sold" },
      previousAttributes: { status: null },
    });
    expect(new Set(events.map((event) => event.id)).size).toBe(4);
    expect(next).toMatch(/^\/v1\/events\?limit=2&after=/);
    // Polled again: nothing new, nothing twice.
    expect((await pollAll(t, next)).events).toEqual([]);
    // From the start, with a filter: the link keeps it.
    const updates = await request(t.app).get("/v1/events?types=pet.updated").set("Authorization", bearer()).expect(200);
    expect(Events.parse(updates.body).map((event) => event.id)).toEqual([events[3]!.id]);
    expect(nextLink(updates)).toBe(`/v1/events?limit=20&types=pet.updated&after=${events[3]!.position}`);
  });

  it("shows a read key the pet events only; key events need admin, and asking for them with less is 403 naming them", async () => {
    const t = await start(provider);
    const read = await keyOfScope(t, "read");
    await createPet(t, "Rex");
    await untilEventsVisible(t.database, 2);
    const all = await request(t.app).get("/v1/events").set("Authorization", bearer()).expect(200);
    expect(Events.parse(all.body).map((event) => event.type)).toEqual(["key.created", "pet.created"]);
    expect(Events.parse(all.body)[0]!.data).not.toHaveProperty("secretDigest");
    const seen = await request(t.app).get("/v1/events").set("Authorization", read).expect(200);
    expect(Events.parse(seen.body).map((event) => event.type)).toEqual(["pet.created"]);
    const refused = expectError(
      await request(t.app).get("/v1/events?types=pet.created,key.revoked").set("Authorization", read),
      403,
      "FORBIDDEN",
    );
    expect(refused.message).toBe("Events of type key.revoked need a key with scope admin.");
    const write = await keyOfScope(t, "write");
    expectError(await request(t.app).get("/v1/events?types=key.created").set("Authorization", write), 403, "FORBIDDEN");
  });

  it("refuses a malformed position, an unknown type and a limit out of range with 400 naming the field", async () => {
    const t = await start(provider);
    for (const [query, field] of [
      ["after=42", "query.after"],
      ["after=1-2-3", "query.after"],
      ["after=99999999999999999999999-1", "query.after"],
      ["types=pet.sold", "query.types"],
      ["types=", "query.types"],
      ["limit=101", "query.limit"],
    ] as const) {
      const body = expectError(
        await request(t.app).get(`/v1/events?${query}`).set("Authorization", bearer()),
        400,
        "VALIDATION_ERROR",
      );
      expect(
        body.issues?.map((issue) => issue.field),
        query,
      ).toEqual([field]);
    }
  });

  it("answers 410 GONE to a position behind what retention purged, and starts from the oldest kept without one", async () => {
    const t = await start(provider);
    const old = new Date(Date.now() - 40 * DAY);
    await t.database.sql.transaction(function* () {
      for (const id of ["msg_old1", "msg_old2", "msg_old3"]) {
        yield* execute(
          sql`INSERT INTO "Event" ("eventId", "type", "createdAt", "data") VALUES (${id}, 'pet.created', ${old}, '{"id":1,"name":"Old","categoryId":1}')`,
        );
      }
    });
    await createPet(t, "New");
    await untilEventsVisible(t.database, 4);
    const before = Events.parse(
      (await request(t.app).get("/v1/events").set("Authorization", bearer()).expect(200)).body,
    );
    expect(before.map((event) => event.id).slice(0, 3)).toEqual(["msg_old1", "msg_old2", "msg_old3"]);
    await t.database.webhooks.fanOut(200);
    const counts = await purgeExpired(t.database.sql, {
      activityMs: 400 * DAY,
      deliveryMs: 30 * DAY,
      eventMs: 30 * DAY,
      idempotencyMs: DAY,
      deletedPetMs: 30 * DAY,
    });
    expect(counts.events).toBe(3);

    // After the first old one: the two after it are gone.
    const gone = expectError(
      await request(t.app).get(`/v1/events?after=${before[0]!.position}`).set("Authorization", bearer()),
      410,
      "GONE",
    );
    expect(gone.message).toMatch(/start again without after/);
    // After the last one purged: nothing was missed.
    const after = await request(t.app)
      .get(`/v1/events?after=${before[2]!.position}`)
      .set("Authorization", bearer())
      .expect(200);
    expect(Events.parse(after.body).map((event) => event.id)).toEqual([before[3]!.id]);
    const fromStart = await request(t.app).get("/v1/events").set("Authorization", bearer()).expect(200);
    expect(Events.parse(fromStart.body).map((event) => event.id)).toEqual([before[3]!.id]);
  });
});

describe.runIf(TEST_PROVIDERS.includes("postgresql"))(
  "the event feed on PostgreSQL, where ids are handed out before commit",
  () => {
    it("gives a poller an event that commits late, behind one with a higher id that committed first: both, once, in a stable order", async () => {
      const t = await start("postgresql");
      const log = createEventLog(t.database.sql);
      const read = async (after?: string) => {
        const page = await log.readPage({
          after: after === undefined ? undefined : decodePosition(after),
          types: LOGGED_TYPES,
          take: 100,
        });
        if (page.kind !== "page") throw new Error("gone");
        return page;
      };
      const start_ = await read();
      const a = new pg.Client({ connectionString: t.config.databaseUrl });
      const b = new pg.Client({ connectionString: t.config.databaseUrl });
      await a.connect();
      await b.connect();
      try {
        const insert = (client: pg.Client, id: string) =>
          client.query(
            `INSERT INTO "Event" ("eventId", "type", "createdAt", "data") VALUES ($1, 'pet.created', now(), '{"id":1,"name":"Rex","categoryId":1}') RETURNING "id"`,
            [id],
          );
        // A begins first (the lower transaction id); B takes the lower sequence value, and commits first.
        await a.query("BEGIN");
        await a.query("SELECT pg_current_xact_id()");
        await b.query("BEGIN");
        const {
          rows: [low],
        } = await insert(b, "msg_b");
        const {
          rows: [high],
        } = await insert(a, "msg_a");
        expect(Number(low.id)).toBeLessThan(Number(high.id));
        await b.query("COMMIT");

        // B is committed, but A, older, is still open: nothing is shown yet, and the next position stays put.
        const meanwhile = await read(encode(start_.next));
        expect(meanwhile.events).toEqual([]);
        await a.query("COMMIT");
        await untilEventsVisible(t.database, 2);

        const after = await read(encode(meanwhile.next));
        expect(after.events.map((event) => event.id)).toEqual(["msg_a", "msg_b"]);
        expect((await read(encode(after.next))).events).toEqual([]);
        // The same order from the start, every time.
        expect((await read()).events.map((event) => event.id)).toEqual(["msg_a", "msg_b"]);
      } finally {
        await a.end();
        await b.end();
      }
    });
  },
);

describe.runIf(TEST_PROVIDERS.includes("postgresql"))("the event log's horizon on PostgreSQL", () => {
  it("is held back by an open write transaction of this database only, not by one of another database on the server", async () => {
    const t = await start("postgresql");
    const elsewhere = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    const here = new pg.Client({ connectionString: t.config.databaseUrl });
    await elsewhere.connect();
    await here.connect();
    try {
      await elsewhere.query("BEGIN");
      await elsewhere.query("SELECT pg_current_xact_id()");
      await createPet(t, "Seen though another database writes");
      await untilEventsVisible(t.database, 1, 3_000);

      await here.query("BEGIN");
      await here.query("SELECT pg_current_xact_id()");
      await createPet(t, "Held back");
      await expect(untilEventsVisible(t.database, 2, 500)).rejects.toThrow(/shows 1 events, not 2/);
      await here.query("ROLLBACK");
      await untilEventsVisible(t.database, 2, 3_000);
    } finally {
      await elsewhere.query("ROLLBACK").catch(() => undefined);
      await elsewhere.end();
      await here.end();
    }
  });
});

const encode = (position: { xid: bigint; id: bigint }) => `${position.xid}-${position.id}`;
