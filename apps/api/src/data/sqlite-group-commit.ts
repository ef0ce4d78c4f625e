import type Sqlite from "better-sqlite3";

interface Pending<In, Out> {
  item: In;
  resolve: (value: Out) => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitOptions {
  /** Told the number of writes each commit carried. */
  onCommit?: (writes: number) => void;
}

/** What the group commits on one connection carried since it opened: read by the metrics. */
export interface GroupCommitTally {
  /** Commits made (a batch each). */
  commits: number;
  /** Writes committed in them; ÷ commits is the mean batch. */
  writes: number;
}

const talliesByConnection = new WeakMap<Sqlite.Database, GroupCommitTally>();

/** The tally of every `groupCommit` on `db` (zeros before the first commit). */
export function groupCommitTally(db: Sqlite.Database): Readonly<GroupCommitTally> {
  return tallyOf(db);
}

function tallyOf(db: Sqlite.Database): GroupCommitTally {
  let tally = talliesByConnection.get(db);
  if (!tally) {
    tally = { commits: 0, writes: 0 };
    talliesByConnection.set(db, tally);
  }
  return tally;
}

/**
 * `write`, committed together with the other writes queued in the same turn
 * of the event loop: one `BEGIN IMMEDIATE ... COMMIT` (one fsync under
 * `synchronous = FULL`, and the table's and its indexes' last pages written
 * once) for all of them, each write in a savepoint of its own, so one that
 * throws is undone alone and rejects alone. Every promise settles after the
 * commit: a caller answers only what is durable. A commit that fails (the
 * lock not had within busy_timeout, a full disk) rejects every write of it,
 * none of which is stored.
 *
 * better-sqlite3 is synchronous: under load, the requests that arrived while
 * the last commit held the event loop are read in the next turn, so they
 * share the next commit. docs/decisions/034-sqlite-creates-committed-together.md.
 */
export function groupCommit<In, Out>(
  db: Sqlite.Database,
  write: (item: In) => Out,
  { onCommit }: GroupCommitOptions = {},
): (item: In) => Promise<Out> {
  // A transaction function called inside another runs in a savepoint (better-sqlite3's nesting).
  const writeOne = db.transaction(write);
  const writeAll = db.transaction((batch: ReadonlyArray<Pending<In, Out>>) =>
    batch.map((pending): { value: Out } | { error: unknown } => {
      try {
        return { value: writeOne(pending.item) };
      } catch (error) {
        return { error };
      }
    }),
  );
  const tally = tallyOf(db);
  let queue: Array<Pending<In, Out>> = [];
  const flush = () => {
    const batch = queue;
    queue = [];
    let outcomes: ReturnType<typeof writeAll>;
    try {
      outcomes = writeAll.immediate(batch);
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    tally.commits += 1;
    tally.writes += batch.length;
    onCommit?.(batch.length);
    outcomes.forEach((outcome, index) => {
      const pending = batch[index]!;
      if ("value" in outcome) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  };
  return (item) =>
    new Promise<Out>((resolve, reject) => {
      // The first write of a turn schedules the commit; the check phase runs after this turn's I/O callbacks.
      if (queue.push({ item, resolve, reject }) === 1) setImmediate(flush);
    });
}
