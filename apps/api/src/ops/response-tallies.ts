import type { Metric, Registry } from "prom-client";

/** One (operation, status) series: its responses, their seconds summed, and how many fell in each bucket. */
interface Series {
  readonly labels: { readonly operation: string; readonly status: string };
  count: number;
  sum: number;
  /** Per bucket, not cumulative: `[i]` counts values <= bounds[i] and > bounds[i - 1]; the last slot is above every bound. */
  readonly inBucket: Float64Array;
}

export interface ResponseTalliesOptions {
  /** The counter's name (responses by operation and status). */
  countName: string;
  countHelp: string;
  /** The histogram's name (seconds by operation and status). */
  durationName: string;
  durationHelp: string;
  /** The histogram's upper bounds in seconds, ascending. */
  buckets: readonly number[];
  registers: readonly Pick<Registry, "registerMetric">[];
}

/**
 * The request counter and duration histogram of every response, tallied in
 * plain numbers per (operation, status) and turned into prom-client's series
 * when scraped. prom-client's own `inc` and `observe` validate and hash the
 * label set on every call, a child's too (a child is the labels bound to the
 * same per-call path): for the one pair of metrics that every response
 * touches, that was most of what metrics cost a request
 * (docs/decisions/031-response-tallies-and-routed-requests.md). Here a response costs a map
 * lookup by a string key, two additions and a bucket search.
 *
 * Scraped, the two read exactly as a prom-client Counter and Histogram with
 * the labels `operation` and `status` would (response-tallies.test.ts compares
 * them line for line), in the text format and as JSON; the registry formats
 * them. Label values come from closed sets (operation names, status codes).
 */
export class ResponseTallies {
  private readonly series = new Map<string, Series>();
  private readonly bounds: readonly number[];

  constructor(private readonly options: ResponseTalliesOptions) {
    this.bounds = [...options.buckets].sort((a, b) => a - b);
    const counter = this.metric(options.countName, options.countHelp, "counter", () => this.countValues());
    const histogram = this.metric(options.durationName, options.durationHelp, "histogram", () => this.durationValues());
    for (const registry of options.registers) {
      // The registry reads a metric through `get()` and these four fields only: the structural type
      // prom-client's Metric union (its own classes) stands for.
      registry.registerMetric(counter as unknown as Metric);
      registry.registerMetric(histogram as unknown as Metric);
    }
  }

  /** One finished response of `operation` with `status`, `seconds` long. */
  observe(operation: string, status: number, seconds: number): void {
    const key = `${operation} ${status}`;
    let found = this.series.get(key);
    if (found === undefined) {
      found = {
        labels: { operation, status: String(status) },
        count: 0,
        sum: 0,
        inBucket: new Float64Array(this.bounds.length + 1),
      };
      this.series.set(key, found);
    }
    found.count += 1;
    found.sum += seconds;
    const bounds = this.bounds;
    let bucket = 0;
    while (bucket < bounds.length && seconds > (bounds[bucket] as number)) bucket++;
    (found.inBucket[bucket] as number) += 1;
  }

  /** What the registry reads of a metric: these four fields, and `get()` for its values. */
  private metric(name: string, help: string, type: "counter" | "histogram", values: () => object[]) {
    // An OpenMetrics registry renames a counter (drops `_total`) on the object: `get()` reads the name from it.
    const metric = {
      name,
      help,
      type,
      aggregator: "sum",
      get: async () => ({
        name: metric.name,
        help: metric.help,
        type,
        aggregator: metric.aggregator,
        values: values(),
      }),
    };
    return metric;
  }

  private countValues() {
    return [...this.series.values()].map(({ labels, count }) => ({ value: count, labels: { ...labels } }));
  }

  private durationValues() {
    const { durationName: name } = this.options;
    // Bucket values carry `exemplar: null` as prom-client's do (exemplars are off).
    const values: { value: number; labels: Record<string, string | number>; metricName: string; exemplar?: null }[] =
      [];
    for (const { labels, count, sum, inBucket } of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, index) => {
        cumulative += inBucket[index] as number;
        values.push({ value: cumulative, labels: { le, ...labels }, metricName: `${name}_bucket`, exemplar: null });
      });
      values.push(
        { value: count, labels: { le: "+Inf", ...labels }, metricName: `${name}_bucket`, exemplar: null },
        { value: sum, labels: { ...labels }, metricName: `${name}_sum` },
        { value: count, labels: { ...labels }, metricName: `${name}_count` },
      );
    }
    return values;
  }
}
