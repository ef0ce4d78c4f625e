import { describe, expect, it } from "vitest";
import type { LoadResult } from "./scenarios.js";
import {
  chosenSpread,
  cpuUsPerRequest,
  deliveriesPerSecond,
  failedResponses,
  furthestFromOne,
  inRunRatio,
  inRunSpread,
  issuedOverConfigured,
  medianOf,
  nameSearchP99Ratio,
  pairedRatio,
  pairedSpread,
  roundRatios,
  spreadOf,
  summarize,
  updateOverCreate,
  upperMedian,
  webhooksOverNone,
  worstOf,
  type Measured,
  type RoundRun,
} from "./statistics.js";

const result = (requestsPerSecond: number, more: Partial<LoadResult> = {}): LoadResult => ({
  requestsPerSecond,
  p50Ms: 1,
  p99Ms: 2,
  total: 1000,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  generatorBusy: 0.5,
  serverBusy: 0.9,
  ...more,
});
/** A target's rounds: one run per round, in round order, of these req/s. */
const measured = (...rates: number[]): Measured => ({
  rounds: rates.map((rate, i) => ({ round: i + 1, position: 1, result: result(rate) })),
});
/** Rounds of these p99s (req/s all 1000). */
const withP99 = (...p99s: number[]): Measured => ({
  rounds: p99s.map((p99Ms, i) => ({ round: i + 1, position: 1, result: result(1000, { p99Ms }) })),
});
/** A key-sliced run whose key made `key` requests in the time the reference key made `reference` (1 s each). */
const sliced = (key: number, reference: number): LoadResult =>
  result(key, { keySlices: { key: { requests: key, ms: 1000 }, reference: { requests: reference, ms: 1000 } } });

describe("medianOf", () => {
  it("takes the middle value of an odd count, whatever the order", () => {
    expect(medianOf([5, 1, 3])).toBe(3);
    expect(medianOf([900, 1100, 1000, 980, 1020])).toBe(1000);
  });

  it("takes the mean of the middle two of an even count", () => {
    expect(medianOf([4, 1, 3, 2])).toBe(2.5);
    expect(medianOf([0.9, 1.2])).toBeCloseTo(1.05);
  });

  it("leaves out what is not a finite number, and is NaN when nothing is left", () => {
    expect(medianOf([1, NaN, 3, Infinity])).toBe(2);
    expect(medianOf([NaN])).toBeNaN();
    expect(medianOf([])).toBeNaN();
  });

  it("does not reorder the values it is given", () => {
    const values = [3, 1, 2];
    medianOf(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe("upperMedian (cpu.ts)", () => {
  it("takes the middle value of an odd count and the upper of the middle two of an even one", () => {
    expect(upperMedian([3, 1, 2])).toBe(2);
    expect(upperMedian([4, 1, 3, 2])).toBe(3);
  });
});

describe("summarize", () => {
  const rounds = (rates: number[]): RoundRun[] =>
    rates.map((rate, i) => ({
      round: i + 1,
      position: 1,
      result: result(rate, {
        p50Ms: rate / 100,
        p99Ms: rate / 10,
        total: rate * 2,
        non2xx: i,
        serverBusy: rate / 1000,
      }),
    }));

  it("of an odd count: the median round's req/s and latencies, the counts summed", () => {
    const { result: summary, latencyRound } = summarize(rounds([100, 300, 200]));
    expect(summary.requestsPerSecond).toBe(200);
    expect(latencyRound).toBe(3);
    expect(summary.p99Ms).toBe(20);
    expect(summary.serverBusy).toBe(0.2);
    expect(summary.total).toBe((100 + 300 + 200) * 2);
    expect(summary.non2xx).toBe(0 + 1 + 2);
  });

  it("of an even count: req/s the mean of the middle two, latencies the slower one's", () => {
    const { result: summary, latencyRound } = summarize(rounds([100, 300, 200, 400]));
    expect(summary.requestsPerSecond).toBe(250);
    // 200 req/s (round 3) is the slower of the middle two.
    expect(latencyRound).toBe(3);
    expect(summary.p50Ms).toBe(2);
    expect(summary.p99Ms).toBe(20);
    expect(summary.total).toBe(2000);
  });
});

describe("paired ratios", () => {
  it("are the median of the rounds' ratios, not the ratio of the medians", () => {
    const a = measured(100, 200, 300);
    const b = measured(50, 400, 150);
    expect(roundRatios(a, b)).toEqual([2, 0.5, 2]);
    expect(pairedRatio(a, b)).toBe(2);
    // The medians' ratio would be 200 / 150.
    expect(medianOf([100, 200, 300]) / medianOf([50, 400, 150])).not.toBeCloseTo(2);
  });

  it("pair the runs by round: the same runs in another order give another ratio", () => {
    expect(pairedRatio(measured(100, 200, 300), measured(100, 100, 300))).toBe(1);
    expect(pairedRatio(measured(100, 200, 300), measured(300, 100, 100))).toBe(2);
  });

  it("of an even number of rounds: the mean of the middle two ratios", () => {
    expect(roundRatios(measured(100, 200, 300, 400), measured(100, 100, 100, 100))).toEqual([1, 2, 3, 4]);
    expect(pairedRatio(measured(100, 200, 300, 400), measured(100, 100, 100, 100))).toBe(2.5);
  });

  it("leave out a round the other target did not run, and are NaN when a target is missing", () => {
    expect(roundRatios(measured(100, 300, 500), measured(100, 100))).toEqual([1, 3, NaN]);
    expect(pairedRatio(measured(100, 300, 500), measured(100, 100))).toBe(2);
    expect(pairedRatio(measured(100), undefined)).toBeNaN();
    expect(pairedRatio(undefined, measured(100))).toBeNaN();
  });

  it("take another figure when given one: the floor's CPU per request over the API's", () => {
    const api = { rounds: [{ round: 1, position: 1, result: result(1000, { serverBusy: 0.5 }) }] };
    const floor = { rounds: [{ round: 1, position: 2, result: result(1000, { serverBusy: 0.4 }) }] };
    expect(cpuUsPerRequest(api.rounds[0]!.result)).toBe(500);
    expect(pairedRatio(floor, api, cpuUsPerRequest)).toBeCloseTo(0.8);
  });
});

describe("the name-search p99 ratio", () => {
  it("pairs the search's p99 with plain listPets' round by round, the median of the rounds' ratios", () => {
    const search = withP99(30, 12, 25);
    const plain = withP99(10, 12, 5);
    // Rounds: 3, 1, 5; the medians' ratio would be 25 / 10.
    expect(roundRatios(search, plain, (r) => r.p99Ms)).toEqual([3, 1, 5]);
    expect(nameSearchP99Ratio(search, plain)).toBe(3);
  });

  it("is of the p99s, not the req/s", () => {
    const search = { rounds: [{ round: 1, position: 1, result: result(500, { p99Ms: 6 }) }] };
    const plain = { rounds: [{ round: 1, position: 2, result: result(1000, { p99Ms: 4 }) }] };
    expect(nameSearchP99Ratio(search, plain)).toBe(1.5);
  });

  it("is NaN without the plain page or the search", () => {
    expect(nameSearchP99Ratio(undefined, withP99(1))).toBeNaN();
  });
});

describe("issued over configured", () => {
  it("is each key-sliced run's key rate over its reference's, the median over the rounds", () => {
    expect(inRunRatio(sliced(900, 1000))).toBeCloseTo(0.9);
    const issued = {
      rounds: [sliced(900, 1000), sliced(1100, 1000), sliced(950, 1000)].map((r, i) => ({
        round: i + 1,
        position: 1,
        result: r,
      })),
    };
    expect(issuedOverConfigured(issued)).toBeCloseTo(0.95);
  });

  it("is NaN for a plain run and for a missing target", () => {
    expect(inRunRatio(result(1000))).toBeNaN();
    expect(issuedOverConfigured(undefined)).toBeNaN();
  });
});

describe("the spread beside a median", () => {
  it("is the median of the finite values with their least and greatest", () => {
    expect(spreadOf([0.9, 1.1, 0.8, NaN])).toEqual({ median: 0.9, min: 0.8, max: 1.1 });
    expect(spreadOf([])).toEqual({ median: NaN, min: NaN, max: NaN });
  });

  it("pairedSpread ranges over the rounds' ratios, its median pairedRatio's", () => {
    const api = measured(900, 1000, 450);
    const floor = measured(1000, 1000, 500);
    expect(pairedSpread(api, floor)).toEqual({ median: pairedRatio(api, floor), min: 0.9, max: 1 });
    expect(pairedSpread(api, undefined).median).toBeNaN();
  });

  it("inRunSpread ranges over a key-sliced target's in-run ratios, its median issuedOverConfigured's", () => {
    const token = {
      rounds: [sliced(900, 1000), sliced(1100, 1000), sliced(950, 1000)].map((r, i) => ({
        round: i + 1,
        position: 1,
        result: r,
      })),
    };
    const spread = inRunSpread(token);
    expect(spread.median).toBe(issuedOverConfigured(token));
    expect([spread.min, spread.max]).toEqual([0.9, 1.1]);
    expect(inRunSpread(undefined).median).toBeNaN();
  });

  it("chosenSpread takes the dataset whose median is chosen, with that dataset's range", () => {
    const datasets = [spreadOf([0.9, 0.95, 1]), spreadOf([0.8, 0.86, 1.2]), spreadOf([])];
    expect(chosenSpread(datasets, (medians) => worstOf(medians, Math.min))).toEqual({
      median: 0.86,
      min: 0.8,
      max: 1.2,
    });
    expect(chosenSpread([spreadOf([1.02]), spreadOf([0.97])], furthestFromOne)).toEqual({
      median: 0.97,
      min: 0.97,
      max: 0.97,
    });
    expect(chosenSpread([spreadOf([])], furthestFromOne)).toBeUndefined();
  });
});

describe("failedResponses", () => {
  it("adds the statuses >= 400, errors and timeouts, and counts a run with no answer at all as one", () => {
    expect(failedResponses(result(1000))).toBe(0);
    expect(failedResponses(result(1000, { non2xx: 1, errors: 2, timeouts: 3 }))).toBe(6);
    expect(failedResponses(result(0, { total: 0 }))).toBe(1);
  });
});

describe("across the datasets", () => {
  it("worstOf picks the lowest (or highest) finite figure, NaN when there is none", () => {
    expect(worstOf([0.91, NaN, 0.84, 0.88], Math.min)).toBe(0.84);
    expect(worstOf([1.2, 1.45, NaN], Math.max)).toBe(1.45);
    expect(worstOf([NaN, NaN], Math.min)).toBeNaN();
  });

  it("furthestFromOne picks the ratio furthest from 1 either way (of two as far, the first)", () => {
    expect(furthestFromOne([0.97, 1.04, 0.99])).toBe(1.04);
    expect(furthestFromOne([1.02, 0.93])).toBe(0.93);
    expect(furthestFromOne([0.5, 1.5, NaN])).toBe(0.5);
    expect(furthestFromOne([NaN])).toBeNaN();
  });
});

describe("webhooksOverNone", () => {
  it("is paired by round: the median of the rounds' ratios, not the ratio of the medians", () => {
    // Rounds 1.0, 0.9, 0.95 (the third round slow on both sides): median 0.95; the medians' ratio would be 900/1000 = 0.9.
    expect(webhooksOverNone(measured(1000, 900, 475), measured(1000, 1000, 500))).toBeCloseTo(0.95);
  });

  it("is NaN when either side did not run", () => {
    expect(webhooksOverNone(undefined, measured(1000))).toBeNaN();
    expect(webhooksOverNone(measured(1000), undefined)).toBeNaN();
  });
});

describe("updateOverCreate", () => {
  it("is the API's updatePet over its createPet, paired by round", () => {
    // Rounds 0.8, 0.9, 0.85: median 0.85.
    expect(updateOverCreate(measured(800, 900, 425), measured(1000, 1000, 500))).toBeCloseTo(0.85);
  });

  it("is NaN when updatePet did not run (a build that does not serve it) or createPet did not", () => {
    expect(updateOverCreate(undefined, measured(1000))).toBeNaN();
    expect(updateOverCreate(measured(1000), undefined)).toBeNaN();
  });
});

describe("deliveriesPerSecond", () => {
  it("counts the deliveries over the time from the first create to the last receipt", () => {
    expect(deliveriesPerSecond(2000, 10_000, 14_000)).toBe(500);
  });

  it("is NaN when nothing arrived or the last receipt is not after the start", () => {
    expect(deliveriesPerSecond(0, 10_000, 14_000)).toBeNaN();
    expect(deliveriesPerSecond(10, 10_000, NaN)).toBeNaN();
    expect(deliveriesPerSecond(10, 10_000, 10_000)).toBeNaN();
  });
});
