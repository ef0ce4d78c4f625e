import { describe, expect, it } from "vitest";
import type { ActiveKey } from "./access-repository.js";
import { IssuedKeys, MAX_KEY_SET_AGE_MS, REFRESH_KEY_SET_AFTER_MS } from "./issued-keys.js";

const key = (id: number): ActiveKey => ({
  id,
  name: `key ${id}`,
  scope: "read",
  secretDigest: `digest-${id}`,
  expiresAt: null,
});

/**
 * A key table whose reads take as long as the test says: each query sees the
 * table as it is when the query is sent (as a database does) and answers only
 * when `answer()` is called. So a test decides what overlaps what.
 */
class SlowKeyTable {
  private rows = new Map<number, { key: ActiveKey; revoked: boolean }>();
  private waiting: Array<() => void> = [];
  queries = 0;

  create(active: ActiveKey) {
    this.rows.set(active.id, { key: active, revoked: false });
  }
  revoke(id: number) {
    this.rows.get(id)!.revoked = true;
  }
  private later<T>(value: T): Promise<T> {
    this.queries++;
    return new Promise((resolve) => this.waiting.push(() => resolve(value)));
  }
  keysVersion = () => {
    const rows = [...this.rows.values()];
    return this.later(`${rows.length}:${Math.max(0, ...this.rows.keys())}:${rows.filter((row) => row.revoked).length}`);
  };
  activeKeys = () => this.later([...this.rows.values()].filter((row) => !row.revoked).map((row) => row.key));
  /** Answers every query sent so far, and those they lead to, until none is left. */
  async answerAll() {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const waiting = this.waiting.splice(0);
      if (waiting.length === 0) return;
      for (const answer of waiting) answer();
    }
  }
  /** Answers the queries sent so far, once. */
  async answer() {
    await new Promise((resolve) => setImmediate(resolve));
    for (const answer of this.waiting.splice(0)) answer();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function setUp() {
  const table = new SlowKeyTable();
  const clock = { ms: 1_000_000 };
  const keys = new IssuedKeys({ repository: table, now: () => clock.ms, monotonicNow: () => clock.ms });
  return { table, clock, keys };
}

describe("IssuedKeys: a read that overlaps this process's own creates and revokes", () => {
  it("is kept, with them laid over it: the key created here stays, the one revoked here stays out, the set counts as read", async () => {
    const { table, clock, keys } = setUp();
    table.create(key(1));
    const first = keys.whenFresh()!;
    await table.answerAll();
    await first;

    clock.ms += MAX_KEY_SET_AGE_MS;
    const waiting = keys.whenFresh()!; // the stamp query is sent: it sees key 1 only
    // Meanwhile this process creates key 2 and revokes key 1 (both committed after the stamp was read).
    table.create(key(2));
    keys.added(key(2));
    table.revoke(1);
    keys.revoked(1);
    await table.answerAll();
    await waiting;

    expect(keys.find("digest-1")).toBeUndefined();
    expect(keys.find("digest-2")).toEqual(key(2));
    expect(keys.whenFresh()).toBeUndefined(); // the read counted: the set is fresh
  });

  it("takes in a revocation made on another replica, though every read overlaps a create or a no-op revoke here", async () => {
    const { table, clock, keys } = setUp();
    table.create(key(1)); // the victim
    table.create(key(2));
    table.revoke(2); // revoked long ago: revoking it again changes nothing
    const first = keys.whenFresh()!;
    await table.answerAll();
    await first;
    expect(keys.find("digest-1")).toBeDefined();

    table.revoke(1); // on the other replica
    const revokedAt = clock.ms;
    let nextId = 3;
    // Each step: a request arrives 100 ms later, and while any read is in flight this process creates a key and
    // revokes key 2 again, so every read overlaps a local change.
    while (keys.find("digest-1")) {
      clock.ms += 100;
      expect(clock.ms - revokedAt).toBeLessThanOrEqual(MAX_KEY_SET_AGE_MS + 100);
      const waiting = keys.whenFresh();
      const created = key(nextId++);
      table.create(created);
      keys.added(created);
      keys.revoked(2);
      await table.answer();
      await table.answer();
      await waiting;
    }
    expect(keys.find(`digest-${nextId - 1}`)).toBeDefined();
  });
});

describe("IssuedKeys: a request that waits", () => {
  it("never goes on with a read that started more than MAX_KEY_SET_AGE_MS before it arrived: it waits for the next", async () => {
    const { table, clock, keys } = setUp();
    table.create(key(1));
    const first = keys.whenFresh()!;
    await table.answerAll();
    await first;

    clock.ms += REFRESH_KEY_SET_AFTER_MS;
    expect(keys.whenFresh()).toBeUndefined(); // a background read starts, and hangs: the stamp it reads has key 1
    clock.ms += 100;
    table.revoke(1); // on the other replica, after that read started
    clock.ms += MAX_KEY_SET_AGE_MS;
    const waiting = keys.whenFresh()!; // the background read started 1100 ms before this request: too old for it
    await table.answerAll(); // the old read finds the stamp unchanged and keeps key 1; a second read follows
    await waiting;
    expect(keys.find("digest-1")).toBeUndefined();
  });

  it("a read of a set that predates a revocation is followed by a second read before the waiting request goes on", async () => {
    const { table, clock, keys } = setUp();
    table.create(key(1));
    const first = keys.whenFresh()!;
    await table.answerAll();
    await first;

    clock.ms += REFRESH_KEY_SET_AFTER_MS;
    table.create(key(2)); // the stamp moves: the background read will read the keys
    expect(keys.whenFresh()).toBeUndefined(); // background read: its stamp query is sent now
    await table.answer(); // the stamp is answered; the keys query is sent: key 1 still active
    clock.ms += MAX_KEY_SET_AGE_MS + 100;
    table.revoke(1); // on the other replica, more than 1 s after the read in flight started
    const waiting = keys.whenFresh()!;
    const queriesBefore = table.queries;
    await table.answerAll();
    await waiting;
    expect(table.queries).toBeGreaterThan(queriesBefore); // a second read, started after the request arrived
    expect(keys.find("digest-1")).toBeUndefined();
  });
});

describe("IssuedKeys: clocks", () => {
  it("ages the set by the monotonic clock: a wall clock set back an hour does not freeze it", async () => {
    const table = new SlowKeyTable();
    const wall = { ms: 2_000_000_000 };
    const monotonic = { ms: 0 };
    const keys = new IssuedKeys({ repository: table, now: () => wall.ms, monotonicNow: () => monotonic.ms });
    table.create(key(1));
    const first = keys.whenFresh()!;
    await table.answerAll();
    await first;

    wall.ms -= 3_600_000;
    monotonic.ms += MAX_KEY_SET_AGE_MS;
    table.revoke(1);
    const waiting = keys.whenFresh();
    expect(waiting).toBeDefined();
    await table.answerAll();
    await waiting;
    expect(keys.find("digest-1")).toBeUndefined();
  });
});

describe("IssuedKeys: session tokens", () => {
  const token = (
    id: number,
    holder: { sessionId: number; staffId: number | null; keyId: string | null },
  ): ActiveKey => ({
    id,
    name: "Sam",
    scope: "write",
    secretDigest: `token-${id}`,
    expiresAt: null,
    token: holder,
  });

  it("drops a session's, a person's or a key's tokens at once, and a key's own revocation takes its sessions' tokens", () => {
    const { keys } = setUp();
    keys.added(key(5));
    keys.added(token(1, { sessionId: 10, staffId: 3, keyId: null }));
    keys.added(token(2, { sessionId: 11, staffId: 3, keyId: null }));
    keys.added(token(3, { sessionId: 12, staffId: 4, keyId: null }));
    keys.added(token(4, { sessionId: 13, staffId: null, keyId: "5" }));
    // A token whose row id equals a key's id is not that key.
    keys.added(token(5, { sessionId: 14, staffId: 4, keyId: null }));
    keys.endedSessions({ sessionId: 10 });
    expect(keys.find("token-1")).toBeUndefined();
    expect(keys.find("token-2")).toBeDefined();
    keys.endedSessions({ staffId: 3 });
    expect(keys.find("token-2")).toBeUndefined();
    expect(keys.find("token-3")).toBeDefined();
    keys.revoked(5);
    expect(keys.find("digest-5")).toBeUndefined();
    expect(keys.find("token-4")).toBeUndefined();
    expect(keys.find("token-5")).toBeDefined();
    expect(keys.keyById(5)).toBeUndefined();
  });

  it("looks an unknown digest up once and holds it; a revocation made during the look-up stands", async () => {
    const found = new Map<string, ActiveKey>([["token-7", token(7, { sessionId: 20, staffId: 9, keyId: null })]]);
    let release: () => void = () => {};
    const reads: string[] = [];
    const repository = {
      keysVersion: async () => "v",
      activeKeys: async () => [],
      findActiveKey: async (digest: string) => {
        reads.push(digest);
        await new Promise<void>((resolve) => (release = resolve));
        return found.get(digest);
      },
    };
    const keys = new IssuedKeys({ repository });
    const first = keys.lookUp("token-7");
    release();
    expect(await first).toMatchObject({ id: 7 });
    expect(keys.find("token-7")).toBeDefined();
    // Ended while a look-up was in flight: not brought back.
    keys.endedSessions({ sessionId: 20 });
    const second = keys.lookUp("token-7");
    await new Promise((resolve) => setImmediate(resolve));
    keys.endedSessions({ staffId: 9 });
    release();
    expect(await second).toBeUndefined();
    expect(keys.find("token-7")).toBeUndefined();
    expect(reads).toEqual(["token-7", "token-7"]);
  });
});
