import { describe, expect, it } from "vitest";
import { parseApiEnv, parseBenchOptions, parseCpuOptions } from "./options.js";
import { SCENARIOS } from "./scenarios.js";

describe("parseBenchOptions", () => {
  it("defaults to a full run", () => {
    expect(parseBenchOptions([])).toEqual({
      quick: false,
      durationSeconds: 2,
      warmupSeconds: 2,
      rounds: 5,
      issuedLength: 6,
      connections: 32,
      datasets: [10_000, 1_000_000],
      targets: ["api", "api-issued", "api-token", "api-webhooks", "production", "bare", "baseline", "postgresql"],
      postgres: true,
      web: true,
      cpuProf: false,
      scenarios: [...SCENARIOS],
      apiEnv: {},
      deliveries: 2_000,
    });
  });

  it("--quick: 10k rows, SQLite only, 2 rounds, 1 s warm-up, api-issued twice as long", () => {
    expect(parseBenchOptions(["--", "--quick"])).toMatchObject({
      quick: true,
      datasets: [10_000],
      rounds: 2,
      warmupSeconds: 1,
      issuedLength: 2,
      postgres: false,
      web: false,
    });
  });

  it("reads the options, keeping the scenarios in the table's order", () => {
    const options = parseBenchOptions([
      "--rounds=3",
      "--duration=4",
      "--scenarios=getPet,listPets",
      "--no-web",
      "--api-env=LOG_LEVEL=warn,X=a=b",
    ]);
    expect(options).toMatchObject({
      rounds: 3,
      durationSeconds: 4,
      scenarios: ["listPets", "getPet"],
      web: false,
      postgres: true,
    });
    expect(options.apiEnv).toEqual({ LOG_LEVEL: "warn", X: "a=b" });
  });

  it("runs updatePet after createPet, the writes last, whatever the order named", () => {
    expect(parseBenchOptions(["--quick", "--scenarios=updatePet,createPet"]).scenarios).toEqual([
      "createPet",
      "updatePet",
    ]);
    expect(parseBenchOptions([]).scenarios.slice(-2)).toEqual(["createPet", "updatePet"]);
  });

  it("reads the target `express` as the production floor's, its name before the bare floor ran beside it", () => {
    expect(parseBenchOptions(["--targets=api,express,bare"]).targets).toEqual(["api", "production", "bare"]);
  });

  it("refuses an unknown option, a part second, an API variant without api, and a bad --deliveries", () => {
    expect(() => parseBenchOptions(["--help"])).toThrow("unknown option(s) --help; see bench/src/run.ts");
    expect(() => parseBenchOptions(["--duration=1.5"])).toThrow("must be whole numbers >= 1");
    expect(() => parseBenchOptions(["--rounds=0"])).toThrow("must be whole numbers >= 1");
    expect(() => parseBenchOptions(["--targets=api-issued,production"])).toThrow("needs api too");
    expect(() => parseBenchOptions(["--targets=api-webhooks"])).toThrow("needs api too");
    expect(() => parseBenchOptions(["--targets=api-token,production"])).toThrow("--targets=api-token needs api too");
    expect(() => parseBenchOptions(["--deliveries=-1"])).toThrow("--deliveries must be a whole number");
    expect(parseBenchOptions(["--deliveries=0"]).deliveries).toBe(0);
  });
});

describe("parseCpuOptions", () => {
  it("defaults to the API and its two floors on the scenarios every server serves, `express` read as `production`", () => {
    expect(parseCpuOptions(["--targets=api,express"]).targets).toEqual(["api", "production"]);
    expect(parseCpuOptions([])).toMatchObject({
      targets: ["api", "production", "bare"],
      rounds: 3,
      requests: 20_000,
      rows: 10_000,
      postgres: false,
      issued: false,
    });
    expect(parseCpuOptions([]).scenarios).toEqual([
      "listPets",
      "listPets?status=available&limit=100",
      "getPet",
      "createPet",
    ]);
  });

  it("leaves updatePet (the API's own) out unless named", () => {
    expect(parseCpuOptions([]).scenarios).not.toContain("updatePet");
    expect(parseCpuOptions(["--targets=api", "--scenarios=updatePet"])).toMatchObject({
      targets: ["api"],
      scenarios: ["updatePet"],
    });
  });

  it("--issued: the API only", () => {
    expect(parseCpuOptions(["--issued", "--targets=production"])).toMatchObject({
      issued: true,
      targets: ["api"],
      pairs: 8,
      slice: 5_000,
    });
  });

  it("--webhooks: the API only, createPet only, and not with --issued", () => {
    expect(parseCpuOptions(["--webhooks", "--scenarios=getPet"])).toMatchObject({
      webhooks: true,
      targets: ["api"],
      scenarios: ["createPet"],
      slice: 2_000,
    });
    expect(() => parseCpuOptions(["--webhooks", "--issued"])).toThrow("one at a time");
  });

  it("--token: the API only, and not with --issued or --webhooks", () => {
    expect(parseCpuOptions(["--token"])).toMatchObject({ token: true, targets: ["api"], pairs: 8, slice: 5_000 });
    expect(() => parseCpuOptions(["--token", "--issued"])).toThrow("one at a time");
    expect(() => parseCpuOptions(["--token", "--webhooks"])).toThrow("one at a time");
  });
});

describe("parseApiEnv", () => {
  it("is empty without pairs", () => {
    expect(parseApiEnv()).toEqual({});
    expect(parseApiEnv("METRICS_TOKEN=")).toEqual({ METRICS_TOKEN: "" });
  });
});
