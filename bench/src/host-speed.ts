/**
 * The host's speed, recorded beside a run's figures: a fixed single-threaded
 * CPU task (SHA-256 of a fixed 1 KiB buffer, a fixed number of times) timed
 * before and after the run. Absolute req/s follow the host (one session's host
 * ran 1.8× slower than earlier ones'); with this beside them, figures of
 * different days can be compared, and a run whose host slowed down meanwhile
 * shows it.
 */
import { createHash } from "node:crypto";
import { medianOf } from "./statistics.js";

/** The task: this many hashes of a buffer of this many bytes, timed this many times. */
export const CALIBRATION: Readonly<{ hashes: number; bytes: number; repeats: number }> = {
  hashes: 20_000,
  bytes: 1024,
  repeats: 5,
};

/** One calibration: the fastest repeat (what the host can do) and the median (what it did, neighbours included), in ms. */
export interface HostSpeed {
  fastestMs: number;
  medianMs: number;
}

/** The fastest and the median of the repeats' times. */
export function hostSpeedOf(samplesMs: readonly number[]): HostSpeed {
  return { fastestMs: Math.min(...samplesMs), medianMs: medianOf([...samplesMs]) };
}

/** Times the task CALIBRATION.repeats times on this thread (a few tenths of a second). */
export function measureHostSpeed({ hashes, bytes, repeats } = CALIBRATION): HostSpeed {
  const buffer = Buffer.alloc(bytes, 0x5a);
  const samples: number[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    const started = performance.now();
    for (let i = 0; i < hashes; i++) createHash("sha256").update(buffer).digest();
    samples.push(performance.now() - started);
  }
  return hostSpeedOf(samples);
}

/** The report's line: `20,000 SHA-256 of 1 KiB ... 41.2 ms before, 42.0 ms after`. */
export function hostSpeedLine(before: HostSpeed, after: HostSpeed): string {
  const ms = (speed: HostSpeed) => `${speed.fastestMs.toFixed(1)} ms (median ${speed.medianMs.toFixed(1)})`;
  return (
    `Host speed: ${CALIBRATION.hashes.toLocaleString("en")} SHA-256 of ${CALIBRATION.bytes / 1024} KiB on one thread, the fastest of ${CALIBRATION.repeats}: ` +
    `${ms(before)} before the run, ${ms(after)} after (lower is faster; compare figures of different days through it).`
  );
}
