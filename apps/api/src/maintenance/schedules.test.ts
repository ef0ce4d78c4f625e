import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SqlRunner } from "../data/sql-work.js";
import { createTestApp, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";
import { jobLease } from "./job-lease.js";
import { startBackupSchedule, type ScheduledBackupResult } from "./schedules.js";

const HOUR = 3_600_000;
const silent = pino({ level: "silent" });

/** A backup that reports success, or waits until the schedule's signal ends it (as the child process is killed). */
function fakeBackup(kind: "succeeds" | "hangs" | "fails") {
  const calls: number[] = [];
  const takeBackup = (signal: AbortSignal) => {
    calls.push(Date.now());
    if (kind === "fails") return Promise.reject(new Error("the disk is full"));
    if (kind === "succeeds")
      return Promise.resolve({
        file: "b.sqlite",
        bytes: 1,
        pets: 0,
        seconds: 0,
        verified: true,
        rotated: [],
      } as unknown as ScheduledBackupResult);
    return new Promise<ScheduledBackupResult>((_, reject) =>
      signal.addEventListener("abort", () => reject(new Error("killed")), { once: true }),
    );
  };
  return { calls, takeBackup };
}

describe.each(TEST_PROVIDERS)("scheduled jobs' last run on %s", (provider) => {
  let t: TestApp;
  let runner: SqlRunner;
  beforeEach(async () => {
    t = await createTestApp({}, provider);
    runner = t.database.sql;
  });
  afterEach(async () => {
    await t.close();
  });

  it("a backup that succeeds or fails is a run; one the API's close cut short is not, so the next start takes it", async () => {
    const lease = jobLease(runner, "backup");
    const run = async (kind: "succeeds" | "hangs" | "fails") => {
      const backup = fakeBackup(kind);
      const schedule = startBackupSchedule({
        runner,
        everyMs: 6 * HOUR,
        holder: `replica-${kind}`,
        logger: silent,
        takeBackup: backup.takeBackup,
      });
      await expect.poll(() => backup.calls.length).toBe(1);
      await schedule.stop();
      return backup.calls.length;
    };

    expect(await run("hangs")).toBe(1);
    expect(await lease.lastRunAt()).toBeNull();
    // Not run yet, so due at once: the next start takes it.
    expect(await run("succeeds")).toBe(1);
    const succeededAt = await lease.lastRunAt();
    expect(succeededAt).not.toBeNull();

    // Due again only BACKUP_EVERY later: a start now takes none.
    const early = fakeBackup("succeeds");
    const quiet = startBackupSchedule({
      runner,
      everyMs: 6 * HOUR,
      holder: "replica-early",
      logger: silent,
      takeBackup: early.takeBackup,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await quiet.stop();
    expect(early.calls).toHaveLength(0);

    // A failure counts as the period's run (a lasting fault is retried once a period, not at every look).
    const failing = fakeBackup("fails");
    const failed = startBackupSchedule({
      runner,
      everyMs: 6 * HOUR,
      holder: "replica-fails",
      logger: silent,
      takeBackup: failing.takeBackup,
      now: () => new Date(Date.now() + 7 * HOUR),
    });
    await expect.poll(() => failing.calls.length).toBe(1);
    await failed.stop();
    expect((await lease.lastRunAt())!.getTime()).toBeGreaterThan(succeededAt!.getTime() + 6 * HOUR);
  });
});
