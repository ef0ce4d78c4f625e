/**
 * A bench run: seeds each database and dataset, starts the servers side by
 * side, checks their answers (and asks each target whether its build serves
 * updatePet: one that does not is left out of it), then loads them with wrk scenario by scenario
 * (a warm-up of each target, then the measured rounds in rotating order), and
 * last measures the web app. api-webhooks's runs (createPet) have three webhook
 * endpoints registered just before and deleted just after (webhooks.ts); after
 * each database's first dataset, the delivery throughput is measured on an API
 * of its own whose sender runs. What it measured is a BenchRecord (results.ts);
 * report.ts renders it. run.ts describes the method and wires this up.
 */
import { copyFileSync, createReadStream, rmSync } from "node:fs";
import path from "node:path";
import { AnswerCheck, sampleAnswer } from "./answers.js";
import { ensurePostgresDatabase, freshSqliteCopy, removeSqliteFiles } from "./databases.js";
import { createIssuedKey } from "./issued-key.js";
import { createSessionToken } from "./session-token.js";
import { log, percent, rowsLabel } from "./format.js";
import { runLoad, SERVER_CPU, sliceRate } from "./load.js";
import type { BenchOptions } from "./options.js";
import type { BenchRecord, Row } from "./results.js";
import { API_ONLY_SCENARIOS, PROBED_SCENARIOS, type LoadJob, type LoadResult, type Scenario } from "./scenarios.js";
import { explainPostgres, explainSqlite, seedPostgres, seedSqlite, trimPostgres } from "./seed.js";
import { peakRssMb, resetPeakRss, stopServer, type RunningServer } from "./server-process.js";
import { API_KEY, measuredApiRoot, migrateForBuild, PG_ADMIN_URL, PG_BENCH_URL, startBenchServer } from "./servers.js";
import {
  failedResponses,
  inRunSpread,
  issuedOverConfigured,
  pairedRatio,
  summarize,
  updateOverCreate,
  webhooksOverNone,
  type RoundRun,
} from "./statistics.js";
import {
  isApiServer,
  isKeySliced,
  serverOf,
  serverOrder,
  servesScenario,
  targetOrder,
  type Provider,
  type ServerKind,
  type Target,
} from "./targets.js";
import { measureWeb } from "./web.js";
import {
  deleteEndpoints,
  measureDeliveries,
  measureFairSending,
  registerEndpoints,
  startReceiver,
  WEBHOOK_ENDPOINTS,
  webhookEnv,
  type Receiver,
} from "./webhooks.js";

/** Where a run works: wrk's path, a scratch folder (deleted by the caller) and the results folder of this run. */
export interface Workspace {
  wrk: string;
  work: string;
  outDir: string;
}

interface Started {
  kind: ServerKind;
  server: RunningServer;
  logFile: string;
}

/** What wrk loads for a target: its server, with the key it sends (api-token: the key its session tokens are started with). */
interface Loaded {
  target: Target;
  server: RunningServer;
  apiKey: string;
}

/**
 * The key a run of `loaded` sends: its key, or for api-token a session token freshly started with its key.
 * A token lasts 10 minutes and a run seconds: one per run outlives it, whatever the length of the bench.
 */
const sentKey = ({ target, server, apiKey }: Loaded): Promise<string> =>
  target === "api-token" ? createSessionToken(server.url, apiKey) : Promise.resolve(apiKey);

/** The seconds of load one database and dataset takes (every scenario, target, warm-up and round). */
export function loadSeconds(options: BenchOptions): number {
  const targets = targetOrder(options.targets, 0);
  const issuedExtra =
    targets.filter(isKeySliced).length * (options.issuedLength - 1) * options.rounds * options.durationSeconds;
  const perTarget = options.warmupSeconds + options.rounds * options.durationSeconds;
  // api-webhooks runs createPet only.
  const webhooksExtra = targets.includes("api-webhooks")
    ? perTarget * (options.scenarios.includes("createPet") ? 1 : 0)
    : 0;
  const others = targets.filter((target) => target !== "api-webhooks").length;
  return options.scenarios.length * (others * perTarget + issuedExtra) + webhooksExtra;
}

/** Runs the whole bench; the caller writes the record out and deletes `work`. */
export async function runBench(options: BenchOptions, workspace: Workspace): Promise<BenchRecord> {
  return new BenchRun(options, workspace).run();
}

class BenchRun {
  private readonly record: BenchRecord = {
    results: [],
    logFigures: [],
    plans: {},
    headerWarnings: [],
    failures: 0,
    deliveries: [],
    fairSending: [],
    unserved: [],
  };
  /** Where api-webhooks's endpoints point (the sender is paused in those runs: nothing arrives). */
  private receiver: Receiver | undefined;
  private readonly answers = new AnswerCheck(log);
  /** Counts the turns (warm-ups and rounds) of the whole run, for the rotation of targetOrder. */
  private turn = 0;

  constructor(
    private readonly options: BenchOptions,
    private readonly workspace: Workspace,
  ) {}

  async run(): Promise<BenchRecord> {
    const { options } = this;
    const targets = targetOrder(options.targets, 0).length;
    log(
      `plan: per database and dataset, ${options.scenarios.length} scenarios × ${targets} targets × ` +
        `(${options.warmupSeconds} s warm-up + ${options.rounds} rounds × ${options.durationSeconds} s), ` +
        `about ${loadSeconds(options)} s of load (api-issued's and api-token's rounds ${options.issuedLength}× as long)`,
    );
    this.receiver = await startReceiver();
    try {
      await this.sqlite();
      if (options.postgres && options.targets.includes("postgresql")) await this.postgresql();
    } finally {
      await this.receiver.close();
    }
    if (options.web) await this.web();
    return { ...this.record, headerWarnings: this.answers.headerWarnings };
  }

  /** SQLite: one migrated template, seeded per dataset, copied fresh for each server. */
  private async sqlite(): Promise<void> {
    const { work } = this.workspace;
    const migrated = path.join(work, "migrated.db");
    await migrateForBuild(`file:${migrated}`);
    for (const rows of this.options.datasets) {
      const template = path.join(work, `template-${rows}.db`);
      copyFileSync(migrated, template);
      const seedStart = Date.now();
      seedSqlite(template, rows);
      log(`sqlite: seeded ${rowsLabel(rows)} pets in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
      this.record.plans[`sqlite ${rowsLabel(rows)}`] = explainSqlite(template);
      // In the template, so every server's copy (and the web measurement's) has the key.
      const issuedKey = createIssuedKey(measuredApiRoot(), `file:${template}`);
      const fileOf = (kind: ServerKind) => path.join(work, `${kind}-${rows}.db`);
      const order = serverOrder(this.options.targets, this.turn);
      for (const kind of order) freshSqliteCopy(template, fileOf(kind));
      const datasetStart = Date.now();
      try {
        await this.dataset("sqlite", rows, order, (kind) => `file:${fileOf(kind)}`, issuedKey);
      } finally {
        for (const kind of order) removeSqliteFiles(fileOf(kind));
      }
      log(`sqlite ${rowsLabel(rows)}: ${((Date.now() - datasetStart) / 1000).toFixed(0)} s`);
      if (rows === this.options.datasets[0]) {
        const file = path.join(work, `deliveries-${rows}.db`);
        freshSqliteCopy(template, file);
        try {
          await this.deliveries("sqlite", `file:${file}`);
        } finally {
          removeSqliteFiles(file);
        }
      }
      if (!(this.options.web && rows === this.options.datasets[0])) rmSync(template, { force: true });
    }
  }

  /**
   * PostgreSQL: the same servers (the two Express floors through Prisma, the baseline through `pg`) on one
   * database; the rows their createPet runs added are deleted once the dataset's servers have stopped
   * (getPet asks for ids <= rows and the lists read the first pages by id, so no scenario sees them).
   */
  private async postgresql(): Promise<void> {
    if (!(await ensurePostgresDatabase(PG_ADMIN_URL, PG_BENCH_URL, log))) return;
    // Issued keys live beside the pets, which seeding truncates: one key serves every dataset.
    const issuedKey = createIssuedKey(measuredApiRoot(), PG_BENCH_URL);
    for (const rows of this.options.datasets) {
      const seedStart = Date.now();
      await seedPostgres(PG_BENCH_URL, rows);
      log(`postgresql: seeded ${rowsLabel(rows)} pets in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
      this.record.plans[`postgresql ${rowsLabel(rows)}`] = await explainPostgres(PG_BENCH_URL);
      const datasetStart = Date.now();
      try {
        await this.dataset(
          "postgresql",
          rows,
          serverOrder(this.options.targets, this.turn),
          () => PG_BENCH_URL,
          issuedKey,
        );
        if (rows === this.options.datasets[0]) await this.deliveries("postgresql", PG_BENCH_URL);
      } finally {
        await trimPostgres(PG_BENCH_URL, rows);
      }
      log(`postgresql ${rowsLabel(rows)}: ${((Date.now() - datasetStart) / 1000).toFixed(0)} s`);
    }
  }

  /** The web app against the API on the first dataset's SQLite template; a failure is recorded as the reason. */
  private async web(): Promise<void> {
    const { work } = this.workspace;
    const rows = this.options.datasets[0]!;
    const file = path.join(work, "web.db");
    copyFileSync(path.join(work, `template-${rows}.db`), file);
    try {
      this.record.web = await measureWeb({
        work,
        // Not pinned: Chromium needs both cores.
        // The app is served by this API, at its own origin (web.ts).
        startApi: ({ port, origin, distDir }) =>
          startBenchServer("api", {
            databaseUrl: `file:${file}`,
            logFile: path.join(work, "api-web.log"),
            cwd: work,
            apiEnv: { ...this.options.apiEnv, PORT: String(port), ADMIN_ORIGIN: origin, WEB_DIST_DIR: distDir },
          }),
        stopApi: stopServer,
        apiKey: API_KEY,
        rows,
        log,
      });
    } catch (error) {
      this.record.web = `not measured: ${error instanceof Error ? error.message : String(error)}`;
      log(this.record.web);
    }
  }

  /**
   * The delivery throughput on one database (--deliveries pets, one endpoint), on an API of its own whose
   * sender looks every DELIVERY_POLL_MS; not pinned: the sender, the receiver and the creating client
   * (both in this process) share the two cores. A receiver that did not get every event is a failure.
   * Then fair sending on the same API (measureFairSending).
   */
  private async deliveries(provider: Provider, databaseUrl: string): Promise<void> {
    const pets = this.options.deliveries;
    if (pets === 0) return;
    const { work } = this.workspace;
    const logFile = path.join(work, `api-deliveries-${provider}.log`);
    const server = await startBenchServer("api", {
      databaseUrl,
      logFile,
      cwd: work,
      apiEnv: { ...this.options.apiEnv, ...webhookEnv("running") },
    });
    try {
      const measured = await measureDeliveries(provider, server.url, API_KEY, pets);
      this.record.deliveries.push(measured);
      log(
        `  ${provider} deliveries: ${measured.distinct} of ${pets} events received (${measured.received} requests) in ${measured.lastReceiptSeconds.toFixed(1)} s ` +
          `(creates done at ${measured.createSeconds.toFixed(1)} s): ${measured.deliveriesPerSecond.toFixed(0)} deliveries/s`,
      );
      if (measured.distinct !== pets || measured.received !== pets) {
        this.record.failures += 1;
        log(
          `  FAILED ${provider} deliveries: the receiver got ${measured.distinct} distinct events in ${measured.received} requests, not ${pets}`,
        );
      }
      const fair = await measureFairSending(provider, server.url, API_KEY);
      this.record.fairSending.push(fair);
      log(
        `  ${provider} fair sending: the fast receiver's worst lag ${fair.aloneLagSeconds.toFixed(2)} s alone, ${fair.besideSlowLagSeconds.toFixed(2)} s ` +
          `beside one answering after ${(fair.slowAnswerMs / 1000).toFixed(1)} s (which held at most ${fair.slowMostOpen} sends at once)`,
      );
      if (fair.fastReceived !== fair.pets) {
        this.record.failures += 1;
        log(
          `  FAILED ${provider} fair sending: the fast receiver got ${fair.fastReceived} of ${fair.pets} events beside the slow one`,
        );
      }
    } finally {
      await stopServer(server);
      rmSync(logFile, { force: true });
    }
  }

  /** Starts the servers of one database and dataset in `order`, benches them, and stops them. */
  private async dataset(
    provider: Provider,
    rows: number,
    order: ServerKind[],
    databaseUrl: (kind: ServerKind) => string,
    issuedKey: string,
  ): Promise<void> {
    const servers = await this.startAll(order, databaseUrl, `${provider}-${rowsLabel(rows)}`);
    try {
      await this.benchDataset(servers, provider, rows, issuedKey);
    } finally {
      await stopAll(servers);
    }
  }

  /** Starts the servers in `order` one after another (stopping those already started if one fails). */
  private async startAll(
    order: ServerKind[],
    databaseUrl: (kind: ServerKind) => string,
    name: string,
  ): Promise<Started[]> {
    const { work, outDir } = this.workspace;
    const servers: Started[] = [];
    try {
      for (const kind of order) {
        const logFile = path.join(work, `${kind}-${name}.log`);
        // --cpu-prof: every server is profiled, so the API's profile can be read beside its floor's of the same run.
        const profile = this.options.cpuProf ? { dir: outDir, name: `${kind}-${name}` } : undefined;
        // With api-webhooks, the API may register http:// endpoints on this machine, its sender paused for the whole run.
        const apiEnv = this.options.targets.includes("api-webhooks")
          ? { ...webhookEnv("paused"), ...this.options.apiEnv }
          : this.options.apiEnv;
        const server = await startBenchServer(kind, {
          databaseUrl: databaseUrl(kind),
          logFile,
          cwd: outDir,
          cpu: SERVER_CPU,
          profile,
          apiEnv,
        });
        servers.push({ kind, logFile, server });
      }
      return servers;
    } catch (error) {
      await stopAll(servers);
      throw error;
    }
  }

  /** One wrk run of `target`; api-webhooks's with WEBHOOK_ENDPOINTS endpoints registered just before it and deleted (with their deliveries) just after. */
  private async load(target: Loaded, job: LoadJob): Promise<LoadResult> {
    const { wrk, work } = this.workspace;
    const run = () => runLoad(wrk, job, work, target.server.child.pid!);
    if (target.target !== "api-webhooks") return run();
    const ids = await registerEndpoints(target.server.url, API_KEY, this.receiver!.url, WEBHOOK_ENDPOINTS);
    try {
      return await run();
    } finally {
      await deleteEndpoints(target.server.url, API_KEY, ids);
    }
  }

  private async countFailures(result: LoadResult, job: LoadJob, what: string): Promise<void> {
    const failed = failedResponses(result);
    if (failed === 0) return;
    this.record.failures += failed;
    const sample = await sampleAnswer(job).catch((error: unknown) => `no answer (${String(error)})`);
    log(
      `  FAILED ${what}: ${result.total === 0 ? "no response in the whole run; " : ""}${result.non2xx} responses >= 400, ${result.errors} socket errors, ${result.timeouts} timeouts; one request now: ${sample}`,
    );
  }

  /**
   * Every scenario against the servers of one database and dataset, all running:
   * checks their answers, then per scenario a warm-up of each target and
   * `options.rounds` rounds of one measured run each, in rotating order.
   */
  private async benchDataset(servers: Started[], provider: Provider, rows: number, issuedKey: string): Promise<void> {
    const { options } = this;
    const order = (n: number) => targetOrder(options.targets, n);
    const loaded: Loaded[] = order(0).flatMap((target) => {
      const started = servers.find((s) => s.kind === serverOf(target));
      return started ? [{ target, server: started.server, apiKey: isKeySliced(target) ? issuedKey : API_KEY }] : [];
    });
    for (const l of loaded) await this.answers.check(l.server, provider, l.target, rows, await sentKey(l));
    // A name search is the API's own (the floors would answer it as a plain page), and so is updatePet.
    // api-webhooks: createPet only (servesScenario).
    const meant = ({ target }: Loaded, scenario: Scenario) =>
      (!API_ONLY_SCENARIOS.has(scenario) || isApiServer(serverOf(target))) && servesScenario(target, scenario);
    // A build before updatePet (BENCH_API_MAIN) does not serve it: asked once per target before any load,
    // one that answers 404 or 405 is left out of it ("n/a" in the report), not failed.
    const unserved = new Set<string>();
    for (const scenario of options.scenarios.filter((s) => PROBED_SCENARIOS.has(s))) {
      for (const l of loaded.filter((l) => meant(l, scenario))) {
        const probe = await this.answers.servesScenario(l.server, provider, l.target, rows, await sentKey(l), scenario);
        if (probe.served) continue;
        unserved.add(`${l.target} ${scenario}`);
        this.record.unserved.push({ provider, rows, target: l.target, scenario, answer: probe.answer });
        log(
          `  ${provider} ${rowsLabel(rows)} ${l.target} does not serve ${scenario} (its probe was answered ${probe.answer.slice(0, 120)}): left out of it, n/a in the report`,
        );
      }
    }
    const inOrder = (n: number) => order(n).flatMap((target) => loaded.filter((l) => l.target === target));
    // api-issued alternates its issued key with the configured one in the same run, api-token its token with
    // the issued key: the reference key's slices first in odd turns and the other's in even ones, so neither
    // always has the first slice.
    const job = async (
      loadedTarget: Loaded,
      scenario: Scenario,
      durationSeconds: number,
      turnNumber: number,
    ): Promise<LoadJob> => ({
      url: loadedTarget.server.url,
      apiKey: await sentKey(loadedTarget),
      scenario,
      connections: options.connections,
      durationSeconds,
      maxId: rows,
      ...(isKeySliced(loadedTarget.target) && {
        referenceKey: loadedTarget.target === "api-token" ? loadedTarget.apiKey : API_KEY,
        referenceFirst: turnNumber % 2 === 1,
      }),
    });
    const where = `${provider} ${rowsLabel(rows)}`;
    const rowsOfDataset: Row[] = [];
    const requestsSent = new Map<ServerKind, number>();
    const sent = (target: Target, result: LoadResult) =>
      requestsSent.set(serverOf(target), (requestsSent.get(serverOf(target)) ?? 0) + result.total);
    const peakReset = new Set<ServerKind>();
    for (const scenario of options.scenarios) {
      const serves = (l: Loaded) => meant(l, scenario) && !unserved.has(`${l.target} ${scenario}`);
      if (!loaded.some(serves)) {
        log(`  ${where} ${scenario}: no target serves it, skipped`);
        continue;
      }
      const warmups = new Map<Target, LoadResult>();
      for (const target of inOrder(this.turn).filter(serves)) {
        const warmJob = await job(target, scenario, options.warmupSeconds, this.turn);
        const warm = await this.load(target, warmJob);
        sent(target.target, warm);
        await this.countFailures(warm, warmJob, `${where} ${target.target} ${scenario} warm-up`);
        warmups.set(target.target, warm);
        if (!peakReset.has(serverOf(target.target))) {
          resetPeakRss(target.server.child.pid!);
          peakReset.add(serverOf(target.target));
        }
      }
      const runs = new Map<Target, RoundRun[]>(loaded.map(({ target }) => [target, []]));
      for (let round = 1; round <= options.rounds; round++) {
        for (const [index, target] of inOrder(this.turn + round - 1)
          .filter(serves)
          .entries()) {
          // Longer: in a key-sliced run each key has half the time (options.issuedLength).
          const roundJob = await job(
            target,
            scenario,
            options.durationSeconds * (isKeySliced(target.target) ? options.issuedLength : 1),
            round,
          );
          const result = await this.load(target, roundJob);
          sent(target.target, result);
          await this.countFailures(result, roundJob, `${where} ${target.target} ${scenario} round ${round}`);
          runs.get(target.target)!.push({ round, position: index + 1, result });
          log(
            `  ${where} ${target.target.padEnd(10)} ${scenario.padEnd(36)} round ${round}/${options.rounds} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s${result.keySlices ? ` (reference key's slices ${sliceRate(result.keySlices.reference).toFixed(0)})` : ""}  p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms  cores busy: server ${percent(result.serverBusy)}, wrk ${percent(result.generatorBusy)}`,
          );
        }
      }
      this.turn += options.rounds;
      for (const { target } of loaded.filter(serves)) {
        const rounds = runs.get(target)!;
        const row: Row = {
          provider,
          rows,
          scenario,
          target,
          ...summarize(rounds),
          warmup: warmups.get(target)!,
          rounds,
          peakRssMb: NaN,
        };
        rowsOfDataset.push(row);
        this.record.results.push(row);
      }
      const rowOf = (target: Target) => rowsOfDataset.find((r) => r.scenario === scenario && r.target === target);
      const median = (target: Target) => rowOf(target)?.result.requestsPerSecond ?? NaN;
      const ratios = [
        ["api/production", pairedRatio(rowOf("api"), rowOf("production"))],
        ["api/bare", pairedRatio(rowOf("api"), rowOf("bare"))],
        ["issued/configured", issuedOverConfigured(rowOf("api-issued"))],
        ["token/issued", inRunSpread(rowOf("api-token")).median],
        ["webhooks/none", webhooksOverNone(rowOf("api-webhooks"), rowOf("api"))],
        // The same rounds' createPet runs (a scenario earlier), when this is updatePet: its goal on SQLite is >= 0.8.
        [
          "updatePet/createPet",
          scenario === "updatePet"
            ? updateOverCreate(
                rowOf("api"),
                rowsOfDataset.find((r) => r.scenario === "createPet" && r.target === "api"),
              )
            : NaN,
        ],
        ["headroom (baseline/api)", 1 / pairedRatio(rowOf("api"), rowOf("baseline"))],
      ] as const;
      log(
        `  ${where} ${scenario}: median req/s ${loaded
          .filter(serves)
          .map(({ target }) => `${target} ${median(target).toFixed(0)}`)
          .join(", ")}` +
          ratios
            .filter(([, value]) => Number.isFinite(value))
            .map(([name, value]) => `; ${name} ${value.toFixed(2)}`)
            .join(""),
      );
    }
    for (const { server, kind } of servers) {
      const peak = peakRssMb(server.child.pid!);
      for (const row of rowsOfDataset) if (serverOf(row.target) === kind) row.peakRssMb = peak;
    }
    await stopAll(servers);
    for (const { kind, logFile } of servers) {
      this.record.logFigures.push({
        provider,
        rows,
        kind,
        ...(await countLines(logFile)),
        requests: requestsSent.get(kind) ?? 0,
      });
      // A full run logs gigabytes: keep the figures, not the lines.
      rmSync(logFile, { force: true });
    }
  }
}

const stopAll = (servers: Started[]) => Promise.all(servers.map(({ server }) => stopServer(server)));

async function countLines(file: string): Promise<{ lines: number; bytes: number }> {
  let lines = 0;
  let bytes = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  }
  return { lines, bytes };
}
