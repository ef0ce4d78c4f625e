/** What a bench run measured (running.ts fills it, report.ts renders it), and how to look a figure up in it. */
import type { Scenario, LoadResult } from "./scenarios.js";
import type { RoundRun } from "./statistics.js";
import { serverOf, type Provider, type ServerKind, type Target } from "./targets.js";
import type { WebResult } from "./web.js";
import type { DeliveryThroughput, FairSending } from "./webhooks.js";

/** One target, database, dataset and scenario: the median figures, and every run they come from. */
export interface Row {
  provider: Provider;
  rows: number;
  scenario: Scenario;
  target: Target;
  /** req/s: the median of the rounds' (the mean of two); p50/p99: the round `latencyRound`'s; counts: the rounds' sums. */
  result: LoadResult;
  latencyRound: number;
  warmup: LoadResult;
  rounds: RoundRun[];
  /** The server's peak over all the dataset's scenarios (from the end of its first warm-up). */
  peakRssMb: number;
}

/** Lines and bytes a server logged, and the requests it was sent: proof the API logged one line per request. */
export interface LogFigures {
  provider: Provider;
  rows: number;
  kind: ServerKind;
  lines: number;
  bytes: number;
  requests: number;
}

/** A target left out of a scenario because its build does not serve it (answers.ts, servesScenario: 404 or 405). */
export interface Unserved {
  provider: Provider;
  rows: number;
  target: Target;
  scenario: Scenario;
  /** The probe's answer: its status and the start of its body. */
  answer: string;
}

export interface BenchRecord {
  results: Row[];
  logFigures: LogFigures[];
  /** The filtered page's query plan, by database and dataset. */
  plans: Record<string, string>;
  /** The production floor's header differences from the API's (answers.ts). */
  headerWarnings: string[];
  /** The web step's figures, or why it measured nothing; unset when it did not run. */
  web?: WebResult | string;
  /** Responses (warm-ups included) with a status >= 400, errors and timeouts; a delivery throughput whose receiver missed events. */
  failures: number;
  /** The delivery throughput, per database (its first dataset); empty when --deliveries=0. */
  deliveries: DeliveryThroughput[];
  /** Fair sending, per database, on the delivery throughput's API; empty when --deliveries=0. */
  fairSending: FairSending[];
  /** The targets a probed scenario (updatePet) was skipped on: not failures, "n/a" in the report. */
  unserved: Unserved[];
}

/** Why `target` has no row for `scenario` on this database and dataset, when its build does not serve it. */
export function unservedOf(
  unserved: readonly Unserved[],
  provider: Provider,
  target: Target,
  rows: number,
  scenario: Scenario,
): Unserved | undefined {
  return unserved.find(
    (u) => u.provider === provider && u.target === target && u.rows === rows && u.scenario === scenario,
  );
}

export function findRow(
  results: readonly Row[],
  provider: Provider,
  target: Target,
  rows: number,
  scenario: Scenario,
): Row | undefined {
  return results.find(
    (r) => r.provider === provider && r.target === target && r.rows === rows && r.scenario === scenario,
  );
}

/** A server's peak RSS over the scenarios of one dataset (NaN when it did not run). */
export function peakOf(results: readonly Row[], provider: Provider, kind: ServerKind, rows: number): number {
  const peaks = results
    .filter((r) => r.provider === provider && serverOf(r.target) === kind && r.rows === rows)
    .map((r) => r.peakRssMb);
  return peaks.length ? Math.max(...peaks) : NaN;
}
