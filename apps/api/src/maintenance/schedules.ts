import type { Logger } from "pino";
import type { SqlRunner } from "../data/sql-work.js";
import type { BackupReport } from "./backup.js";
import { jobLease } from "./job-lease.js";
import { describePurge, purgeExpired, type RetentionKind, type RetentionSettings } from "./retention.js";

/**
 * The API's own upkeep, each job run by one replica at a time (a lease in the database): scheduled
 * backups (BACKUP_EVERY) and the daily retention purge. A failure logs one error line and waits for
 * the next turn; it never stops the API serving.
 */

const DAY_MS = 86_400_000;

export interface Schedule {
  /** Stops the timer and waits for a run in progress (the API's close). */
  stop(): Promise<void>;
}

type JobOutcome = "cut" | void;

interface Ticking {
  runner: SqlRunner;
  name: string;
  holder: string;
  logger: Logger;
  /** How often to look whether the job is due. */
  checkEveryMs: number;
  /** The job is due when its last run on any replica is older than this. */
  dueAfterMs: (first: boolean) => number;
  /** The lease; renewed at half of it while the job runs. */
  leaseMs: number;
  /** Resolves "cut" when the signal (the API's close) ended it before it was done. */
  job: (signal: AbortSignal) => Promise<JobOutcome>;
  now: () => Date;
}

function tick({ runner, name, holder, logger, checkEveryMs, dueAfterMs, leaseMs, job, now }: Ticking): Schedule {
  const lease = jobLease(runner, name);
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const stopping = new AbortController();
  let first = true;
  const turn = async () => {
    const dueAfter = dueAfterMs(first);
    first = false;
    if (stopped || !(await lease.take({ holder, leaseMs, dueAfterMs: dueAfter, at: now() }).catch(() => false))) return;
    const renewal = setInterval(() => void lease.renew({ holder, leaseMs, at: now() }).catch(() => {}), leaseMs / 2);
    renewal.unref();
    let outcome: JobOutcome = undefined;
    try {
      outcome = await job(stopping.signal);
    } catch (error) {
      logger.error(
        { err: error, job: name },
        `${name} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      clearInterval(renewal);
      // A run the API's close cut short did not happen: the next start (of any replica) runs it when it was
      // due, not a whole period later. A run that failed counts, so a lasting fault is retried once a period.
      await lease.release({ holder, at: now(), ran: outcome !== "cut" }).catch(() => {});
    }
  };
  const next = () => (running = running.then(turn));
  void next();
  const timer = setInterval(next, checkEveryMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      stopping.abort();
      clearInterval(timer);
      await running;
    },
  };
}

export interface RetentionScheduleOptions {
  runner: SqlRunner;
  settings: RetentionSettings;
  holder: string;
  logger: Logger;
  onPurged?: (kind: RetentionKind, count: number) => void;
  now?: () => Date;
  /** How often each replica looks whether a day has passed since the last purge on any of them. */
  checkEveryMs?: number;
}

/** The retention purge: once at start, then daily, by whichever replica gets there first. */
export function startRetentionSchedule({
  runner,
  settings,
  holder,
  logger,
  onPurged,
  now = () => new Date(),
  checkEveryMs = 3_600_000,
}: RetentionScheduleOptions): Schedule {
  return tick({
    runner,
    name: "retention",
    holder,
    logger,
    checkEveryMs,
    // At start it runs whatever the last run (cheap when there is nothing to purge); then daily.
    dueAfterMs: (first) => (first ? 0 : DAY_MS),
    leaseMs: 10 * 60_000,
    now,
    async job(signal) {
      const started = performance.now();
      let longestBatchMs = 0;
      const counts = await purgeExpired(runner, settings, {
        now,
        signal,
        onBatch: (_kind, ms) => (longestBatchMs = Math.max(longestBatchMs, ms)),
        ...(onPurged ? { onPurged } : {}),
      });
      const seconds = Math.round(performance.now() - started) / 1000;
      longestBatchMs = Math.round(longestBatchMs * 10) / 10;
      logger.info(
        { purged: counts, seconds, longestBatchMs },
        `retention: purged ${describePurge(counts)} in ${seconds} s (longest batch ${longestBatchMs} ms)`,
      );
    },
  });
}

/** What one scheduled backup reports (the backup command's `--json` line): the backup, and what rotation removed. */
export interface ScheduledBackupResult extends BackupReport {
  rotated: string[];
}

export interface BackupScheduleOptions {
  runner: SqlRunner;
  everyMs: number;
  holder: string;
  logger: Logger;
  /** Takes one backup and rotates the folder (in a child process: the API's event loop stays free); the signal ends it at the API's close. */
  takeBackup: (signal: AbortSignal) => Promise<ScheduledBackupResult>;
  onSucceeded?: (bytes: number, at: Date) => void;
  onFailed?: () => void;
  now?: () => Date;
}

/** Backups every BACKUP_EVERY, by one replica at a time, keeping the newest BACKUP_KEEP verified ones. */
export function startBackupSchedule({
  runner,
  everyMs,
  holder,
  logger,
  takeBackup,
  onSucceeded,
  onFailed,
  now = () => new Date(),
}: BackupScheduleOptions): Schedule {
  return tick({
    runner,
    name: "backup",
    holder,
    logger,
    // Looked at four times an interval, so a backup comes at most a quarter of BACKUP_EVERY late.
    checkEveryMs: Math.min(Math.max(250, everyMs / 4), 60_000),
    // A restart does not move the schedule: due when the last backup on any replica is BACKUP_EVERY old.
    dueAfterMs: () => everyMs,
    leaseMs: 10 * 60_000,
    now,
    async job(signal) {
      let result: ScheduledBackupResult;
      try {
        result = await takeBackup(signal);
      } catch (error) {
        // Ended by the API's close: not a failure of the backup, and the next start takes one when due.
        if (signal.aborted) return "cut";
        onFailed?.();
        throw error;
      }
      if (!result.verified) {
        onFailed?.();
        logger.error(
          { backup: result },
          `backup ${result.file} is unverified and not counted good: ${result.unverifiedReason ?? "unknown reason"}`,
        );
        return;
      }
      onSucceeded?.(result.bytes, now());
      logger.info(
        { backup: result },
        `backup ${result.file}: ${result.bytes} bytes, ${result.pets} pets, ${result.seconds.toFixed(1)} s, verified`,
      );
    },
  });
}
