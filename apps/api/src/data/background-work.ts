/**
 * Database work no request waits for (a key's last use, a refresh of the
 * issued-key set). `drain()` refuses new work and resolves once what is in
 * flight has settled, so a database is never closed under a write it
 * accepted: closing a PostgreSQL pool under one once hung `pool.end()`.
 */
export interface BackgroundWork {
  /** Starts `work` and tracks it until it settles; rejects at once with BackgroundWorkRefused once `drain()` began. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** From now on refuses new work; resolves when the tracked work has settled (whether it succeeded or not). */
  drain(): Promise<void>;
  /** How many are in flight (for tests and the shutdown log). */
  readonly inFlight: number;
}

export class BackgroundWorkRefused extends Error {
  constructor() {
    super("the database is closing: background work is no longer accepted");
    this.name = "BackgroundWorkRefused";
  }
}

export function createBackgroundWork(): BackgroundWork {
  const pending = new Set<Promise<unknown>>();
  let draining = false;
  return {
    run(work) {
      if (draining) return Promise.reject(new BackgroundWorkRefused());
      const running = work();
      pending.add(running);
      const forget = () => void pending.delete(running);
      running.then(forget, forget);
      return running;
    },
    async drain() {
      draining = true;
      // Work started by settling work (a retry) is refused, so this ends.
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    get inFlight() {
      return pending.size;
    },
  };
}
