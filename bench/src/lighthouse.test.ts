import { describe, expect, it } from "vitest";
import {
  auditsSection,
  DEFAULT_OPTIONS,
  failingAudits,
  figuresOf,
  figuresTable,
  itemLine,
  type Lhr,
  type LhrAudit,
  medianFigures,
  missedTargets,
  parseLighthouseOptions,
  type Figures,
} from "./lighthouse.js";

const figures = (overrides: Partial<Figures> = {}): Figures => ({
  performance: 97,
  accessibility: 100,
  bestPractices: 100,
  seo: 90,
  fcpMs: 1800,
  lcpMs: 2000,
  tbtMs: 50,
  cls: 0.01,
  speedIndexMs: 1800,
  benchmarkIndex: 2700,
  ...overrides,
});

const audit = (id: string, overrides: Partial<LhrAudit> = {}): LhrAudit => ({
  id,
  title: `title of ${id}`,
  score: 1,
  scoreDisplayMode: "binary",
  ...overrides,
});

const lhr = (audits: LhrAudit[], given: Record<string, number | null> = {}): Lhr => {
  const scores: Record<string, number | null> = {
    performance: 0.97,
    accessibility: 1,
    "best-practices": 0.96,
    seo: 0.9,
    ...given,
  };
  return {
    finalDisplayedUrl: "http://127.0.0.1:3300/pets",
    lighthouseVersion: "12.8.2",
    environment: { benchmarkIndex: 2600, hostUserAgent: "Chrome/156.0.0.0" },
    runWarnings: [],
    categories: {
      performance: {
        score: scores["performance"] ?? null,
        auditRefs: [
          { id: "largest-contentful-paint", group: "metrics" },
          { id: "unused-javascript", group: "diagnostics" },
          { id: "render-blocking-resources" },
        ],
      },
      accessibility: { score: scores["accessibility"] ?? null, auditRefs: [{ id: "color-contrast" }] },
      "best-practices": {
        score: scores["best-practices"] ?? null,
        auditRefs: [{ id: "errors-in-console" }, { id: "inspector-issues" }],
      },
      seo: { score: scores["seo"] ?? null, auditRefs: [{ id: "meta-description" }] },
    },
    audits: Object.fromEntries(audits.map((entry) => [entry.id, entry])),
  };
};

describe("parseLighthouseOptions", () => {
  it("defaults to both presets, 5 runs, 100 pets, port 3300", () => {
    expect(parseLighthouseOptions([])).toEqual(DEFAULT_OPTIONS);
    expect(DEFAULT_OPTIONS).toMatchObject({ presets: ["mobile", "desktop"], runs: 5, pets: 100, port: 3300 });
  });

  it("chooses a preset, and reads the numbers and paths", () => {
    expect(
      parseLighthouseOptions(["--", "--preset=desktop", "--runs=3", "--pets=0", "--port=3301", "--chrome=/opt/chrome"]),
    ).toMatchObject({
      presets: ["desktop"],
      runs: 3,
      pets: 0,
      port: 3301,
      chromePath: "/opt/chrome",
    });
    expect(parseLighthouseOptions(["--preset=both"]).presets).toEqual(["mobile", "desktop"]);
    expect(parseLighthouseOptions(["--web-dist=/tmp/dist"]).webDist).toBe("/tmp/dist");
  });

  it("refuses what it does not know", () => {
    expect(() => parseLighthouseOptions(["--preset=tablet"])).toThrow(/mobile, desktop or both/);
    expect(() => parseLighthouseOptions(["--runs=0"])).toThrow(/whole number >= 1/);
    expect(() => parseLighthouseOptions(["--runs=2.5"])).toThrow(/whole number/);
    expect(() => parseLighthouseOptions(["--quick"])).toThrow(/unknown argument/);
    expect(() => parseLighthouseOptions(["--seconds=3"])).toThrow(/unknown option --seconds/);
  });
});

describe("figuresOf", () => {
  it("reads the scores as 0-100 and the metrics' values", () => {
    const result = figuresOf(
      lhr(
        [
          audit("first-contentful-paint", { scoreDisplayMode: "numeric", numericValue: 1780.4 }),
          audit("largest-contentful-paint", { scoreDisplayMode: "numeric", numericValue: 2010 }),
          audit("total-blocking-time", { scoreDisplayMode: "numeric", numericValue: 72 }),
          audit("cumulative-layout-shift", { scoreDisplayMode: "numeric", numericValue: 0.069 }),
        ],
        { performance: 0.965, "best-practices": 0.96, seo: null },
      ),
    );
    expect(result).toMatchObject({
      performance: 97,
      accessibility: 100,
      bestPractices: 96,
      fcpMs: 1780.4,
      lcpMs: 2010,
      tbtMs: 72,
      cls: 0.069,
      benchmarkIndex: 2600,
    });
    // A category Lighthouse could not score, a metric it did not measure.
    expect(result.seo).toBeNaN();
    expect(result.speedIndexMs).toBeNaN();
  });
});

describe("medianFigures", () => {
  it("takes each figure's median on its own", () => {
    const runs = [
      figures({ performance: 90, lcpMs: 3000, cls: 0.1 }),
      figures({ performance: 99, lcpMs: 1000, cls: 0 }),
      figures({ performance: 95, lcpMs: 2000, cls: 0.2 }),
      figures({ performance: 97, lcpMs: 2500, cls: 0.05 }),
      figures({ performance: 96, lcpMs: 1500, cls: 0.01 }),
    ];
    expect(medianFigures(runs)).toMatchObject({ performance: 96, lcpMs: 2000, cls: 0.05, accessibility: 100 });
  });

  it("of an even number, the mean of the middle two; unmeasured runs left out", () => {
    expect(medianFigures([figures({ tbtMs: 10 }), figures({ tbtMs: 30 })]).tbtMs).toBe(20);
    expect(medianFigures([figures({ seo: NaN }), figures({ seo: 92 }), figures({ seo: 100 })]).seo).toBe(96);
  });
});

describe("missedTargets", () => {
  it("is empty when every target of issue 52 is met, at its edges too", () => {
    expect(missedTargets(figures({ performance: 95, cls: 0.049 }))).toEqual([]);
  });

  it("names each target missed", () => {
    expect(missedTargets(figures({ performance: 94, accessibility: 96, bestPractices: 93, cls: 0.05 }))).toEqual([
      "performance 94 < 95",
      "accessibility 96 < 100",
      "best practices 93 < 100",
      "CLS 0.050 >= 0.05",
    ]);
    expect(missedTargets(figures({ performance: NaN }))).toEqual(["performance NaN < 95"]);
  });
});

describe("failingAudits", () => {
  const unused = (savingsMs: number, url: string) =>
    audit("unused-javascript", {
      scoreDisplayMode: "metricSavings",
      score: 0,
      displayValue: `Est savings of ${savingsMs / 10} KiB`,
      metricSavings: { LCP: savingsMs, FCP: savingsMs, CLS: 0 },
      details: {
        type: "opportunity",
        overallSavingsMs: savingsMs,
        overallSavingsBytes: 29_286,
        items: [{ url, totalBytes: 60_108, wastedBytes: 29_286, wastedPercent: 48.7 }],
      },
    });

  it("lists the scored audits under 0.9, with in how many runs they failed and their median savings", () => {
    const runs = [
      lhr([
        unused(300, "/a.js"),
        audit("errors-in-console", { score: 0, details: { items: [{ description: "401 (Unauthorized)" }] } }),
        audit("color-contrast"),
      ]),
      lhr([unused(150, "/b.js"), audit("errors-in-console"), audit("color-contrast")]),
      lhr([unused(450, "/c.js"), audit("errors-in-console"), audit("color-contrast")]),
    ];
    const failing = failingAudits(runs);
    expect(failing.map((entry) => entry.id)).toEqual(["unused-javascript", "errors-in-console"]);
    expect(failing[0]).toMatchObject({
      categories: ["performance"],
      failedRuns: 3,
      runs: 3,
      score: 0,
      savingsMs: 300,
      savingsBytes: 29_286,
      // CLS 0 is no saving.
      metricSavings: { LCP: 300, FCP: 300 },
      displayValue: "Est savings of 30 KiB",
      // The items of the run whose savings were the median.
      items: ["/a.js: totalBytes 58.7 KiB, wastedBytes 28.6 KiB, wastedPercent 49 %"],
    });
    expect(failing[1]).toMatchObject({ categories: ["best-practices"], failedRuns: 1, items: ["401 (Unauthorized)"] });
    expect(failing[1]!.savingsMs).toBeNaN();
  });

  it("leaves out the metrics, passing audits and the ones without a pass mark", () => {
    const failing = failingAudits([
      lhr([
        audit("largest-contentful-paint", { scoreDisplayMode: "numeric", score: 0.5 }),
        audit("render-blocking-resources", { scoreDisplayMode: "metricSavings", score: 0.9 }),
        audit("inspector-issues", { scoreDisplayMode: "notApplicable", score: null }),
        audit("meta-description", { scoreDisplayMode: "manual", score: 0 }),
        audit("errors-in-console", { scoreDisplayMode: "informative", score: 0 }),
      ]),
    ]);
    expect(failing).toEqual([]);
  });

  it("puts the most often failed first, then the largest savings", () => {
    const failing = failingAudits([
      lhr([
        audit("color-contrast", { score: 0 }),
        audit("render-blocking-resources", {
          scoreDisplayMode: "metricSavings",
          score: 0.5,
          details: { overallSavingsMs: 150 },
        }),
        unused(300, "/a.js"),
      ]),
      lhr([
        audit("color-contrast", { score: 0 }),
        audit("render-blocking-resources", {
          scoreDisplayMode: "metricSavings",
          score: 0.5,
          details: { overallSavingsMs: 150 },
        }),
      ]),
    ]);
    expect(failing.map((entry) => [entry.id, entry.failedRuns])).toEqual([
      ["render-blocking-resources", 2],
      ["color-contrast", 2],
      ["unused-javascript", 1],
    ]);
  });
});

describe("itemLine", () => {
  it("names the element, the source or the url, then the numbers", () => {
    expect(itemLine({ url: "http://x/a.css", totalBytes: 4013, wastedMs: 173.2 })).toBe(
      "http://x/a.css: totalBytes 3.9 KiB, wastedMs 173 ms",
    );
    expect(itemLine({ node: { snippet: '<section class="panel">' }, score: 0.06933 })).toBe(
      '<section class="panel">: score 0.0693',
    );
    expect(itemLine({ source: { url: "http://x/api", line: 0 }, description: "Failed to load resource" })).toBe(
      "http://x/api:0",
    );
    expect(itemLine("plain")).toBe("plain");
    expect(
      itemLine({
        source: "…/node_modules/.pnpm/zod@3.25.0/node_modules/zod/v3/types.js",
        sourceBytes: 48_742,
        sourceWastedBytes: 29_082,
      }),
    ).toBe("zod/v3/types.js: sourceBytes 47.6 KiB, sourceWastedBytes 28.4 KiB");
  });

  it("adds a few sub-items and renders a network tree's longest chain", () => {
    expect(itemLine({ node: { snippet: "<p>" }, subItems: { items: [{ label: "a" }, { label: "b" }] } })).toBe(
      "<p> [a; b]",
    );
    expect(
      itemLine({
        type: "list-section",
        value: {
          type: "network-tree",
          longestChain: { duration: 108 },
          chains: {
            one: {
              url: "/sign-in",
              navStartToEndTime: 63,
              transferSize: 1446,
              isLongest: true,
              children: {
                two: { url: "/a.js", navStartToEndTime: 94, transferSize: 61_067 },
                three: { url: "/a.css", navStartToEndTime: 108, transferSize: 4013, isLongest: true },
              },
            },
          },
        },
      }),
    ).toBe("longest chain 108 ms: /sign-in (63 ms, 1.4 KiB) -> /a.css (108 ms, 3.9 KiB)");
    expect(
      itemLine({ type: "list-section", title: "Preconnected origins", value: { type: "text", value: "none" } }),
    ).toBe("Preconnected origins: none");
  });
});

describe("the report's sections", () => {
  it("a row per preset and page with the runs' performance; the audits per page", () => {
    const results = [
      {
        preset: "mobile" as const,
        page: "/sign-in",
        runs: [figures({ performance: 96 }), figures()],
        median: figures({ cls: 0.069 }),
        failing: [],
      },
      {
        preset: "desktop" as const,
        page: "/pets",
        runs: [figures()],
        median: figures(),
        failing: failingAudits([
          lhr([audit("errors-in-console", { score: 0, details: { items: [{ description: "401" }] } })]),
        ]),
      },
    ];
    const table = figuresTable(results);
    expect(table.split("\n")).toHaveLength(4);
    expect(table).toContain("| mobile | /sign-in | 97 (96, 97) | 100 | 100 | 90 | 1800 | 2000 | 50 | 0.069 | 1800 |");
    const audits = auditsSection(results);
    expect(audits).toContain("### mobile /sign-in\n\nNo audit failed.");
    expect(audits).toContain(
      "- `errors-in-console` (best-practices): title of errors-in-console; failed 1/1 runs, score 0.00\n  - 401",
    );
  });
});
