/**
 * The command lines of run.ts (the bench) and cpu.ts (CPU per request), read
 * into typed options with their defaults. Pure: a command line the bench
 * cannot run throws, saying why (run.ts prints it and exits 2). The options
 * themselves are described at the top of run.ts and of cpu.ts.
 */
import { API_ONLY_SCENARIOS, SCENARIOS, type Scenario } from "./scenarios.js";
import { API_VARIANTS, type ServerKind } from "./targets.js";

/** `--name` flags and `--name=value` options of a command line (a lone `--`, which pnpm passes on, is left out). */
export function commandLine(argv: readonly string[]) {
  const args = argv.filter((arg) => arg !== "--");
  return {
    args,
    flag: (name: string): boolean => args.includes(`--${name}`),
    option: (name: string): string | undefined =>
      args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3),
  };
}

/** --api-env=K=V[,K=V]: extra environment for the API (a value may hold `=`). */
export function parseApiEnv(text = ""): Record<string, string> {
  return Object.fromEntries(
    text
      .split(",")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
  ) as Record<string, string>;
}

/**
 * The targets named in `list` (comma-separated), `express` read as `production`: the production floor's
 * target was `express` until the bare Express floor ran beside it, and command lines in the notes still say so.
 */
export function targetNames(list: string): string[] {
  return list.split(",").map((name) => (name === "express" ? "production" : name));
}

/** The scenarios named in `list` (comma-separated), in SCENARIOS' order; without a list, those `byDefault` keeps. */
function chosenScenarios(list: string | undefined, byDefault: (scenario: Scenario) => boolean): Scenario[] {
  return SCENARIOS.filter((scenario) => list?.split(",").includes(scenario) ?? byDefault(scenario));
}

export interface BenchOptions {
  quick: boolean;
  durationSeconds: number;
  warmupSeconds: number;
  rounds: number;
  /** api-issued's and api-token's (key-sliced) runs are this many times --duration. */
  issuedLength: number;
  connections: number;
  datasets: number[];
  /** The targets to run, and `postgresql` to run PostgreSQL too. */
  targets: string[];
  postgres: boolean;
  web: boolean;
  cpuProf: boolean;
  scenarios: Scenario[];
  apiEnv: Record<string, string>;
  /** Pets created for the delivery throughput (one endpoint, the sender running); 0: neither it nor fair sending measured. */
  deliveries: number;
}

const BENCH_ARGUMENT =
  /^--(quick|no-postgres|no-web|cpu-prof|(duration|warmup|rounds|issued-length|connections|datasets|targets|scenarios|api-env|deliveries)=.+)$/;

/** run.ts's command line (its options are listed at the top of run.ts). */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const { args, flag, option } = commandLine(argv);
  const quick = flag("quick");
  // The keys in this order: results.json lists them so.
  const options: BenchOptions = {
    quick,
    durationSeconds: Number(option("duration") ?? 2),
    warmupSeconds: Number(option("warmup") ?? (quick ? 1 : 2)),
    rounds: Number(option("rounds") ?? (quick ? 2 : 5)),
    // api-issued's runs are this many times --duration: each key has half of a run, and the issued-over-configured
    // ratio (goal within 5 %) needs more of it than a plain run's req/s does: an 8 s run's ratio moved by 2.5-3.6 % (sd) on a slow host (decision 018).
    issuedLength: Number(option("issued-length") ?? (quick ? 2 : 6)),
    // One wrk thread keeps 32 connections busy: enough that a server on its core never waits for the next request.
    connections: Number(option("connections") ?? 32),
    datasets: (option("datasets") ?? (quick ? "10000" : "10000,1000000")).split(",").map(Number),
    targets: targetNames(
      option("targets") ?? "api,api-issued,api-token,api-webhooks,production,bare,baseline,postgresql",
    ),
    postgres: !quick && !flag("no-postgres"),
    web: !quick && !flag("no-web"),
    cpuProf: flag("cpu-prof"),
    scenarios: chosenScenarios(option("scenarios"), () => true),
    apiEnv: parseApiEnv(option("api-env")),
    deliveries: Number(option("deliveries") ?? 2_000),
  };
  const unknown = args.filter((arg) => !BENCH_ARGUMENT.test(arg));
  if (unknown.length > 0) throw new Error(`unknown option(s) ${unknown.join(" ")}; see bench/src/run.ts`);
  const wholeSeconds = (value: number) => Number.isInteger(value) && value >= 1;
  if (![options.rounds, options.durationSeconds, options.warmupSeconds, options.issuedLength].every(wholeSeconds)) {
    throw new Error(
      "--rounds, --duration, --warmup and --issued-length must be whole numbers >= 1 (wrk runs whole seconds)",
    );
  }
  for (const target of API_VARIANTS) {
    if (options.targets.includes(target) && !options.targets.includes("api")) {
      throw new Error(`--targets=${target} needs api too (it loads the API process that target starts)`);
    }
  }
  if (!(Number.isInteger(options.deliveries) && options.deliveries >= 0))
    throw new Error("--deliveries must be a whole number >= 0 (0: not measured)");
  return options;
}

export interface CpuOptions {
  postgres: boolean;
  cpuProf: boolean;
  /** The API only, an issued key against the configured one. */
  issued: boolean;
  /** Pairs of createPet slices with and without webhook endpoints registered, in one API process. */
  webhooks: boolean;
  /** Pairs of slices alternating an issued `psk_` key and a `pst_` session token started with it, in one API process. */
  token: boolean;
  /** Pairs of createPet slices with STREAMS event streams open and with none, in one API process. */
  streams: boolean;
  targets: ServerKind[];
  pairs: number;
  slice: number;
  scenarios: Scenario[];
  requests: number;
  warmup: number;
  rounds: number;
  rows: number;
  apiEnv: Record<string, string>;
}

/** cpu.ts's command line (its options are listed at the top of cpu.ts; it does not refuse unknown ones). */
export function parseCpuOptions(argv: readonly string[]): CpuOptions {
  const { flag, option } = commandLine(argv);
  const issued = flag("issued");
  const webhooks = flag("webhooks");
  const token = flag("token");
  const streams = flag("streams");
  if ([issued, webhooks, token, streams].filter(Boolean).length > 1)
    throw new Error("--issued, --webhooks, --token and --streams: one at a time");
  return {
    postgres: flag("postgres"),
    cpuProf: flag("cpu-prof"),
    issued,
    webhooks,
    token,
    streams,
    targets:
      issued || webhooks || token || streams
        ? ["api"]
        : (targetNames(option("targets") ?? "api,production,bare") as ServerKind[]),
    pairs: Number(option("pairs") ?? 8),
    slice: Number(option("slice") ?? (webhooks || streams ? 2_000 : 5_000)),
    // By default the scenarios every server serves; a name search only when asked for. --webhooks, --streams: createPet.
    scenarios:
      webhooks || streams
        ? ["createPet"]
        : chosenScenarios(option("scenarios"), (scenario) => !API_ONLY_SCENARIOS.has(scenario)),
    requests: Number(option("requests") ?? 20_000),
    warmup: Number(option("warmup") ?? 3_000),
    rounds: Number(option("rounds") ?? 3),
    rows: Number(option("rows") ?? 10_000),
    apiEnv: parseApiEnv(option("api-env")),
  };
}
