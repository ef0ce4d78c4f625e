import { describe, expect, it } from "vitest";
import { hostSpeedLine, hostSpeedOf, measureHostSpeed } from "./host-speed.js";

describe("host speed", () => {
  it("is the fastest and the median of the repeats", () => {
    expect(hostSpeedOf([42, 40.5, 55, 41])).toEqual({ fastestMs: 40.5, medianMs: 41.5 });
  });

  it("times the task, a positive time for each figure", () => {
    const speed = measureHostSpeed({ hashes: 200, bytes: 1024, repeats: 3 });
    expect(speed.fastestMs).toBeGreaterThan(0);
    expect(speed.medianMs).toBeGreaterThanOrEqual(speed.fastestMs);
  });

  it("prints before and after in one line", () => {
    expect(hostSpeedLine({ fastestMs: 41.23, medianMs: 42 }, { fastestMs: 44, medianMs: 50.06 })).toBe(
      "Host speed: 20,000 SHA-256 of 1 KiB on one thread, the fastest of 5: 41.2 ms (median 42.0) before the run, 44.0 ms (median 50.1) after (lower is faster; compare figures of different days through it).",
    );
  });
});
