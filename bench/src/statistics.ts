/**
 * The bench's arithmetic, pure: what a target's rounds add up to, the ratios
 * between two targets (paired by round), and which dataset's figure a goal
 * line reports. Nothing here runs anything; statistics.test.ts checks it.
 */
import { sliceRate } from "./load.js";
import type { LoadResult } from "./scenarios.js";

/** One measured run of one target in one round (round and position count from 1). */
export interface RoundRun {
  round: number;
  position: number;
  result: LoadResult;
}

/** Anything measured in rounds: a target's row of the report. */
export interface Measured {
  rounds: RoundRun[];
}

/** A figure of one run: req/s unless said. */
export type Figure = (result: LoadResult) => number;
const requestsPerSecond: Figure = (result) => result.requestsPerSecond;
const p99: Figure = (result) => result.p99Ms;

/** The median of the finite values (of an even number, the mean of the middle two); NaN when there are none. */
export function medianOf(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((x, y) => x - y);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The middle value of the sorted values; of an even number, the upper of the middle two (not their mean,
 * as medianOf takes): cpu.ts's figure, kept as it has always been computed.
 */
export function upperMedian(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/**
 * The figures of a target's rounds: the median req/s (of an even number, the
 * mean of the middle two), p50/p99 of the round with the median req/s (of an
 * even number, the slower of the middle two), counts summed.
 */
export function summarize(rounds: RoundRun[]): { result: LoadResult; latencyRound: number } {
  const sorted = [...rounds].sort((a, b) => a.result.requestsPerSecond - b.result.requestsPerSecond);
  const low = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const high = sorted[Math.ceil((sorted.length - 1) / 2)]!;
  const sum = (pick: Figure) => rounds.reduce((total, run) => total + pick(run.result), 0);
  return {
    result: {
      requestsPerSecond: (low.result.requestsPerSecond + high.result.requestsPerSecond) / 2,
      p50Ms: low.result.p50Ms,
      p99Ms: low.result.p99Ms,
      total: sum((r) => r.total),
      non2xx: sum((r) => r.non2xx),
      errors: sum((r) => r.errors),
      timeouts: sum((r) => r.timeouts),
      generatorBusy: low.result.generatorBusy,
      serverBusy: low.result.serverBusy,
    },
    latencyRound: low.round,
  };
}

/** Failed responses of a run; a run with no answer at all counts as one (wrk's 10 s timeout outlasts a 2 s run, so a stalled server shows no timeout). */
export const failedResponses = (result: LoadResult): number =>
  result.non2xx + result.errors + result.timeouts + (result.total === 0 ? 1 : 0);

/** `a`'s figure over `b`'s in each round, in round order (NaN for a round `b` has not run). */
export function roundRatios(a: Measured, b: Measured, figure: Figure = requestsPerSecond): number[] {
  return a.rounds.map((run, i) => figure(run.result) / (b.rounds[i] ? figure(b.rounds[i].result) : NaN));
}

/**
 * `a`'s req/s (or another figure) over `b`'s, paired by round: the median over the rounds of the
 * two runs of one round (of an even number, the mean of the middle two); NaN when either is missing.
 */
export function pairedRatio(
  a: Measured | undefined,
  b: Measured | undefined,
  figure: Figure = requestsPerSecond,
): number {
  return a && b ? medianOf(roundRatios(a, b, figure)) : NaN;
}

/** A median with the range of the values it is the median of: the spread a goal line prints beside it. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** The median (as medianOf), least and greatest of the finite values; all NaN when there are none. */
export function spreadOf(values: number[]): Spread {
  const finite = values.filter(Number.isFinite);
  return finite.length
    ? { median: medianOf(finite), min: Math.min(...finite), max: Math.max(...finite) }
    : { median: NaN, min: NaN, max: NaN };
}

/** pairedRatio with the range of the rounds' ratios it is the median of. */
export const pairedSpread = (
  a: Measured | undefined,
  b: Measured | undefined,
  figure: Figure = requestsPerSecond,
): Spread => spreadOf(a && b ? roundRatios(a, b, figure) : []);

/**
 * Of several spreads (one per dataset), the one whose median `choose` picks from their medians (worstOf,
 * furthestFromOne); undefined when none has a finite median.
 */
export function chosenSpread(spreads: readonly Spread[], choose: (medians: number[]) => number): Spread | undefined {
  const chosen = choose(spreads.map(({ median }) => median));
  return Number.isFinite(chosen) ? spreads.find(({ median }) => median === chosen) : undefined;
}

/**
 * A name search's p99 over plain listPets', paired by round like every other ratio:
 * one round's outlier p99 (either side) does not decide it.
 */
export const nameSearchP99Ratio = (search: Measured | undefined, plain: Measured | undefined): number =>
  pairedRatio(search, plain, p99);

/** A key-sliced run's key rate over its reference key's (NaN for a plain run). */
export function inRunRatio(result: LoadResult): number {
  return result.keySlices ? sliceRate(result.keySlices.key) / sliceRate(result.keySlices.reference) : NaN;
}

/** A key-sliced target's in-run ratios over its rounds: their median (issuedOverConfigured) and range. */
export const inRunSpread = (sliced: Measured | undefined): Spread =>
  spreadOf(sliced ? sliced.rounds.map(({ result }) => inRunRatio(result)) : []);

/**
 * The issued key's req/s over the configured key's in each key-sliced run of api-issued, the
 * median over the rounds: like every other ratio of the report, one round's burst does not decide it.
 */
export function issuedOverConfigured(issued: Measured | undefined): number {
  return inRunSpread(issued).median;
}

/**
 * The server's CPU time per request in a run (µs): its core's busy share over
 * its rate. Unlike req/s, another process on the server's core does not move
 * it much: the second opinion inside the bench (cpu.ts is the other).
 */
export function cpuUsPerRequest(result: LoadResult): number {
  return (result.serverBusy * 1e6) / result.requestsPerSecond;
}

/** The worst of the finite values by `pick` (Math.min or Math.max), e.g. over the datasets; NaN when there are none. */
export function worstOf(values: number[], pick: (...values: number[]) => number): number {
  const finite = values.filter(Number.isFinite);
  return finite.length ? pick(...finite) : NaN;
}

/** The finite value furthest from 1 either way (of two as far, the first); NaN when there are none. */
export function furthestFromOne(values: number[]): number {
  const finite = values.filter(Number.isFinite);
  return finite.length ? finite.reduce((far, r) => (Math.abs(r - 1) > Math.abs(far - 1) ? r : far)) : NaN;
}

/**
 * createPet with webhook endpoints registered over createPet with none, paired by round like the
 * floor ratios (the median of the rounds' ratios): both are runs of the same API process, back to back.
 */
export const webhooksOverNone = (webhooks: Measured | undefined, none: Measured | undefined): number =>
  pairedRatio(webhooks, none);

/**
 * Deliveries per second: `delivered` events from `startMs` (the first create sent) to `lastMs` (the
 * last receipt), Date.now() times; NaN when nothing arrived or the times are not in order.
 */
export function deliveriesPerSecond(delivered: number, startMs: number, lastMs: number): number {
  const seconds = (lastMs - startMs) / 1000;
  return delivered > 0 && seconds > 0 ? delivered / seconds : NaN;
}

/**
 * The API's updatePet req/s over its createPet req/s on the same dataset, paired by round like the other
 * ratios (the median of the rounds' ratios; the goal on SQLite is >= 0.8). Unlike a floor ratio, the two
 * are not back to back: round n of updatePet runs a scenario after round n of createPet, on the same process.
 */
export const updateOverCreate = (update: Measured | undefined, create: Measured | undefined): number =>
  pairedRatio(update, create);
