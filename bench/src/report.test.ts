import { describe, expect, it } from "vitest";
import { parseBenchOptions } from "./options.js";
import { renderReport, updateLine } from "./report.js";
import type { BenchRecord, Row, Unserved } from "./results.js";
import type { LoadResult, Scenario } from "./scenarios.js";
import { summarize } from "./statistics.js";

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
/** The API's row of a scenario on SQLite 10k, one run per round of these req/s. */
const apiRow = (scenario: Scenario, rates: number[], warmup: Partial<LoadResult> = {}): Row => {
  const rounds = rates.map((rate, i) => ({ round: i + 1, position: 1, result: result(rate) }));
  return {
    provider: "sqlite",
    rows: 10_000,
    scenario,
    target: "api",
    ...summarize(rounds),
    warmup: result(rates[0]!, warmup),
    rounds,
    peakRssMb: 150,
  };
};
const record = (results: Row[], unserved: Unserved[] = []): BenchRecord => ({
  results,
  logFigures: [],
  plans: {},
  headerWarnings: [],
  failures: 0,
  deliveries: [],
  fairSending: [],
  unserved,
});
const options = parseBenchOptions(["--quick", "--targets=api", "--scenarios=createPet,updatePet"]);
const context = {
  stamp: "2026-11-28T00-00-00",
  loadAtStart: 1,
  loadAtEnd: 1,
  hostSpeed: { before: { fastestMs: 30, medianMs: 31 }, after: { fastestMs: 30, medianMs: 31 } },
};
const NOT_SERVED: Unserved = {
  provider: "sqlite",
  rows: 10_000,
  target: "api",
  scenario: "updatePet",
  answer: '405 {"code":"METHOD_NOT_ALLOWED"}',
};

describe("updatePet in the report", () => {
  it("puts updatePet's rate beside createPet's, update ÷ create paired by round, and its ratio-update line", () => {
    const { markdown } = renderReport(
      record([apiRow("createPet", [1000, 1200]), apiRow("updatePet", [900, 960], { non2xx: 3 })]),
      options,
      context,
    );
    expect(markdown).toContain("| 10k | 1100 | 930 | 0.850 | 0.900, 0.800 |");
    // The warm-up's three answers >= 400 are the updatePet row's errors.
    expect(markdown).toMatch(/\| 10k \| 1100 \| 930 \| 0\.850 \|[^\n]*\| 3 \|\n/);
    expect(markdown).toContain("ratio-update sqlite updatePet 0.850 (0.800-0.900)");
  });

  it("prints n/a, with the probe's answer, for a build that does not serve updatePet, and keeps createPet", () => {
    const { markdown } = renderReport(record([apiRow("createPet", [1000, 1200])], [NOT_SERVED]), options, context);
    expect(markdown).toContain("| 10k | 1100 | n/a (not served: 405) |");
    expect(markdown).toContain('- 10k `updatePet` api: answered 405 {"code":"METHOD_NOT_ALLOWED"}');
    expect(markdown).toContain(
      'ratio-update sqlite updatePet n/a (not served by this build: answered 405 {"code":"METHOD_NOT_ALLOWED"})',
    );
    expect(markdown).toContain("| 10k | `createPet` | 1100 |");
  });

  it("takes the worst dataset, and prints nothing when neither scenario ran", () => {
    const rows = (size: number, create: number, update: number) => (scenario: Scenario) => ({
      ...apiRow(scenario, [scenario === "createPet" ? create : update]),
      rows: size,
    });
    const small = rows(10_000, 1000, 900);
    const large = rows(1_000_000, 1000, 700);
    const line = updateLine(
      "sqlite",
      [10_000, 1_000_000],
      (size, scenario) => (size === 10_000 ? small : large)(scenario),
      () => undefined,
    );
    expect(line).toBe("ratio-update sqlite updatePet 0.700 (0.700-0.700)");
    expect(
      updateLine(
        "sqlite",
        [10_000],
        () => undefined,
        () => undefined,
      ),
    ).toBeUndefined();
  });
});
