import Sqlite from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SQLITE_PRAGMAS } from "../database.js";
import { groupCommit, groupCommitTally } from "./sqlite-group-commit.js";

describe("groupCommit (a real SQLite file, with the API's pragmas: WAL, synchronous = FULL, sub-journals in memory)", () => {
  let folder: string;
  let db: Sqlite.Database;
  let commits: number[];
  let add: (item: { name: string; size: number }) => Promise<number>;

  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), "petstore-group-commit-"));
    db = new Sqlite(path.join(folder, "db.sqlite"));
    db.exec(SQLITE_PRAGMAS);
    db.pragma("busy_timeout = 0");
    db.exec(
      `CREATE TABLE "Thing" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "size" INTEGER NOT NULL CHECK ("size" > 0))`,
    );
    const insert = db.prepare<[string, number], { id: number }>(
      `INSERT INTO "Thing" ("name", "size") VALUES (?, ?) RETURNING "id"`,
    );
    const log = db.prepare<[string]>(`INSERT INTO "Thing" ("name", "size") VALUES (?, 1)`);
    commits = [];
    add = groupCommit(
      db,
      ({ name, size }: { name: string; size: number }) => {
        const { id } = insert.get(name, size)!;
        // A second statement in the same write: undone with it when it fails.
        log.run(`${name}: logged`);
        return id;
      },
      { onCommit: (writes) => commits.push(writes) },
    );
  });

  afterEach(() => {
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const names = () =>
    db
      .prepare<[], { name: string }>(`SELECT "name" FROM "Thing" ORDER BY "id"`)
      .all()
      .map((row) => row.name);

  it("commits the writes of one turn together, in order, each answered with its own result", async () => {
    const ids = await Promise.all([
      add({ name: "a", size: 1 }),
      add({ name: "b", size: 2 }),
      add({ name: "c", size: 3 }),
    ]);
    expect(commits).toEqual([3]);
    expect(ids).toEqual([1, 3, 5]);
    expect(names()).toEqual(["a", "a: logged", "b", "b: logged", "c", "c: logged"]);
    // A later turn: a commit of its own.
    expect(await add({ name: "d", size: 4 })).toBe(7);
    expect(commits).toEqual([3, 1]);
    // The connection's tally, which the metrics read.
    expect(groupCommitTally(db)).toEqual({ commits: 2, writes: 4 });
  });

  it("keeps each write's savepoint journal in memory (temp_store = MEMORY), and undoes a large one alone", async () => {
    expect(db.pragma("temp_store", { simple: true })).toBe(2);
    // About 400 KiB of rows inside one savepoint, far past the 64 KiB SQLite would spill to a temporary file.
    const big = db.prepare<[string, string]>(
      `INSERT INTO "Thing" ("name", "size") SELECT ? || "value", 1 FROM json_each(?)`,
    );
    const large = groupCommit(db, ({ fail }: { fail: boolean }) => {
      big.run("x".repeat(400), JSON.stringify(Array.from({ length: 1_000 }, (_, i) => i)));
      if (fail) throw new Error("undo me");
      return 1;
    });
    const outcomes = await Promise.allSettled([
      large({ fail: false }),
      large({ fail: true }),
      add({ name: "after", size: 1 }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(db.prepare(`SELECT count(*) AS n FROM "Thing" WHERE "name" LIKE 'x%'`).get()).toEqual({ n: 1_000 });
    expect(names().slice(-2)).toEqual(["after", "after: logged"]);
  });

  it("checkpoints every 10,000 WAL frames, not SQLite's 1,000, and cuts the WAL file back to 64 MiB (decision 057)", async () => {
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(10_000);
    expect(db.pragma("journal_size_limit", { simple: true })).toBe(64 * 1024 * 1024);
    // 2,000 commits of a page or two each: past SQLite's default, short of this one, so the WAL still holds
    // them all (at 1,000 it would have been checkpointed and started again).
    for (let i = 0; i < 2_000; i += 1) await add({ name: `n${i}`, size: 1 });
    const [state] = db.pragma("wal_checkpoint(PASSIVE)") as Array<{ log: number }>;
    expect(state!.log).toBeGreaterThan(1_000);
  });

  it("a write that throws is undone alone (its savepoint) and rejects alone; the others commit", async () => {
    const outcomes = await Promise.allSettled([
      add({ name: "a", size: 1 }),
      add({ name: "bad", size: 0 }),
      add({ name: "c", size: 3 }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/CHECK constraint failed/);
    expect(commits).toEqual([3]);
    expect(names()).toEqual(["a", "a: logged", "c", "c: logged"]);
  });

  it("a commit that cannot be had rejects every write of it, and stores none", async () => {
    const other = new Sqlite(path.join(folder, "db.sqlite"));
    try {
      other.exec("BEGIN IMMEDIATE");
      const outcomes = await Promise.allSettled([add({ name: "a", size: 1 }), add({ name: "b", size: 2 })]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
      expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({ code: "SQLITE_BUSY" });
      other.exec("ROLLBACK");
    } finally {
      other.close();
    }
    expect(commits).toEqual([]);
    expect(groupCommitTally(db)).toEqual({ commits: 0, writes: 0 });
    expect(names()).toEqual([]);
    expect(await add({ name: "after", size: 1 })).toBe(1);
    expect(groupCommitTally(db)).toEqual({ commits: 1, writes: 1 });
  });

  it("a write answers only once its commit is durable: the row is there for another connection when it resolves", async () => {
    const other = new Sqlite(path.join(folder, "db.sqlite"), { readonly: true });
    try {
      const id = await add({ name: "seen", size: 1 });
      expect(other.prepare(`SELECT "name" FROM "Thing" WHERE "id" = ?`).get(id)).toEqual({ name: "seen" });
    } finally {
      other.close();
    }
  });
});
