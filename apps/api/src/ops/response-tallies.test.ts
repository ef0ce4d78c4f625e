import { Counter, Histogram, Registry, type OpenMetricsContentType } from "prom-client";
import { describe, expect, it } from "vitest";
import { ResponseTallies } from "./response-tallies.js";

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
const NAMES = {
  countName: "http_requests_total",
  countHelp: "Responses.",
  durationName: "http_request_duration_seconds",
  durationHelp: "Seconds.",
};

/** The same responses into the tallies and into prom-client's own Counter and Histogram, each in a registry of its own. */
function both(responses: readonly [operation: string, status: number, seconds: number][]) {
  const talliedRegistry = new Registry();
  const tallies = new ResponseTallies({ ...NAMES, buckets: BUCKETS, registers: [talliedRegistry] });
  const ownRegistry = new Registry();
  const labelNames = ["operation", "status"] as const;
  const counter = new Counter({ name: NAMES.countName, help: NAMES.countHelp, labelNames, registers: [ownRegistry] });
  const histogram = new Histogram({
    name: NAMES.durationName,
    help: NAMES.durationHelp,
    labelNames,
    buckets: BUCKETS,
    registers: [ownRegistry],
  });
  for (const [operation, status, seconds] of responses) {
    tallies.observe(operation, status, seconds);
    counter.inc({ operation, status: String(status) });
    histogram.observe({ operation, status: String(status) }, seconds);
  }
  return { tallied: talliedRegistry, own: ownRegistry };
}

describe("ResponseTallies", () => {
  // Values on a bound, between bounds, below the first and above the last; several series, one seen twice.
  const responses: [string, number, number][] = [
    ["getPet", 200, 0.0004],
    ["getPet", 200, 0.001],
    ["getPet", 200, 0.0011],
    ["getPet", 404, 0.03],
    ["listPets", 200, 0.25],
    ["listPets", 200, 7],
    ["unmatched", 404, 0.0025],
    ["getPet", 200, 1],
  ];

  it("scrapes as prom-client's own Counter and Histogram would, line for line", async () => {
    const { tallied, own } = both(responses);
    expect(tallied.contentType).toBe(own.contentType);
    expect(await tallied.metrics()).toBe(await own.metrics());
  });

  it("reads the same as JSON", async () => {
    const { tallied, own } = both(responses);
    expect(await tallied.getMetricsAsJSON()).toEqual(await own.getMetricsAsJSON());
  });

  it("scrapes as an untouched pair before the first response: names and types, no series", async () => {
    const { tallied, own } = both([]);
    expect(await tallied.metrics()).toBe(await own.metrics());
    expect(await tallied.metrics()).toContain("# TYPE http_request_duration_seconds histogram");
  });

  it("is read through an OpenMetrics registry as prom-client's are (counters named _total once)", async () => {
    const openMetrics = () => {
      const registry = new Registry<OpenMetricsContentType>();
      registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
      return registry;
    };
    const tallies = openMetrics();
    new ResponseTallies({ ...NAMES, buckets: BUCKETS, registers: [tallies] }).observe("getPet", 200, 0.002);
    const own = openMetrics();
    const labelNames = ["operation", "status"] as const;
    new Counter({ name: NAMES.countName, help: NAMES.countHelp, labelNames, registers: [own] }).inc({
      operation: "getPet",
      status: "200",
    });
    new Histogram({
      name: NAMES.durationName,
      help: NAMES.durationHelp,
      labelNames,
      buckets: BUCKETS,
      registers: [own],
    }).observe({ operation: "getPet", status: "200" }, 0.002);
    expect(await tallies.metrics()).toBe(await own.metrics());
  });
});
