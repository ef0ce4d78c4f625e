/**
 * node dist/replicas.js [options]: the write path on PostgreSQL with two replicas, as a store that scales out
 * runs it: two API processes of one build on one database, each loaded by its own wrk (1 thread, half the
 * clients), both at once. Prints `replicas postgresql <scenario> round <n>: <a> + <b> = <sum> req/s` with the
 * CPU time per request of the two replicas and of PostgreSQL's processes, then the medians per scenario: on a
 * shared host the CPU per request moves much less than the rate does. What it measures that run.ts's one process does not: the writes of two processes
 * meeting on the same rows (the inventory's counts, the sequences, the indexes' last pages), so a row every
 * create must lock would show here as a rate that stops growing with the second replica.
 *
 * Run it for each build back to back (BENCH_API_MAIN for the other build; each migrates the database with
 * its own migrations and seeds it again), alternating: the figures of one build are only comparable with
 * another's measured beside them on the same host. Nothing is pinned (two servers, PostgreSQL and two wrk
 * share the machine's cores), the same for every build.
 *
 * Options: --scenarios=createPet,updatePet (default createPet; a build that does not serve updatePet
 * fails it) --clients=N (default 32, split evenly) --rounds=N (default 5) --duration=S (default 5)
 * --warmup=S (default 5) --rows=N (default 10000).
 * Env: BENCH_API_MAIN (another build of the API), BENCH_PG_URL.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensurePostgresDatabase } from "./databases.js";
import { runIfEntry } from "./entry.js";
import { ensureLoadGenerator, runLoad } from "./load.js";
import { commandLine } from "./options.js";
import { SCENARIOS, type Scenario } from "./scenarios.js";
import { seedPostgres } from "./seed.js";
import { cpuNs, stopServer, type RunningServer } from "./server-process.js";
import { API_KEY, apiCommand, PG_ADMIN_URL, PG_BENCH_URL, startBenchServer } from "./servers.js";
import { upperMedian as median } from "./statistics.js";

const REPLICAS = 2;

/**
 * CPU time of every PostgreSQL server process on this machine (the postmaster, its backends, its writers), in
 * ns: what the database spent for the requests, beside the replicas' own. A process that ends between two
 * readings takes its time with it; the pools keep their backends for the whole run.
 */
function postgresCpuNs(): number {
  let total = 0;
  for (const pid of readdirSync("/proc").filter((entry) => /^[0-9]+$/.test(entry))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres") total += cpuNs(Number(pid));
    } catch {
      // it ended meanwhile
    }
  }
  return total;
}

export async function main(argv: readonly string[]): Promise<number> {
  const { option } = commandLine(argv);
  const scenarios = (option("scenarios") ?? "createPet").split(",") as Scenario[];
  const unknown = scenarios.filter((scenario) => !SCENARIOS.includes(scenario));
  if (unknown.length > 0) throw new Error(`unknown scenario(s) ${unknown.join(", ")}`);
  const [clients, rounds, duration, warmup, rows] = ["clients", "rounds", "duration", "warmup", "rows"].map(
    (name, index) => Number(option(name) ?? [32, 5, 5, 5, 10_000][index]),
  ) as [number, number, number, number, number];
  if (
    ![clients, rounds, duration, warmup, rows].every((value) => Number.isInteger(value) && value >= 1) ||
    clients % REPLICAS !== 0
  ) {
    throw new Error(
      `--clients (a multiple of ${REPLICAS}), --rounds, --duration, --warmup and --rows must be whole numbers >= 1`,
    );
  }
  apiCommand();
  const wrk = ensureLoadGenerator((message) => console.log(message));
  const work = mkdtempSync(path.join(tmpdir(), "petstore-replicas-"));
  const build = process.env["BENCH_API_MAIN"] ?? "this workspace";
  console.log(
    `build ${build}; PostgreSQL ${PG_BENCH_URL.replace(/\/\/[^@]*@/, "//")}; ${REPLICAS} replicas, ${clients} clients, ${rows} pets`,
  );

  if (!(await ensurePostgresDatabase(PG_ADMIN_URL, PG_BENCH_URL, (message) => console.log(message)))) return 1;
  await seedPostgres(PG_BENCH_URL, rows);
  const servers: RunningServer[] = [];
  try {
    for (let replica = 0; replica < REPLICAS; replica++) {
      servers.push(
        await startBenchServer("api", {
          databaseUrl: PG_BENCH_URL,
          logFile: path.join(work, `replica-${replica}.log`),
          cwd: work,
        }),
      );
    }
    const loadAll = (scenario: Scenario, seconds: number) =>
      Promise.all(
        servers.map((server) =>
          runLoad(
            wrk,
            {
              url: server.url,
              apiKey: API_KEY,
              scenario,
              connections: clients / REPLICAS,
              durationSeconds: seconds,
              maxId: rows,
            },
            work,
            server.child.pid!,
          ),
        ),
      );
    for (const scenario of scenarios) {
      await loadAll(scenario, warmup);
      const sums: number[] = [];
      const cpu = { api: [] as number[], postgres: [] as number[] };
      for (let round = 1; round <= rounds; round++) {
        const apiBefore = servers.reduce((total, server) => total + cpuNs(server.child.pid!), 0);
        const postgresBefore = postgresCpuNs();
        const results = await loadAll(scenario, duration);
        const requests = results.reduce((total, result) => total + result.total, 0);
        cpu.api.push(
          (servers.reduce((total, server) => total + cpuNs(server.child.pid!), 0) - apiBefore) / 1000 / requests,
        );
        cpu.postgres.push((postgresCpuNs() - postgresBefore) / 1000 / requests);
        const failed = results.find((result) => result.non2xx > 0 || result.errors > 0);
        if (failed)
          throw new Error(
            `${scenario}: ${failed.non2xx} non-2xx answers and ${failed.errors} errors in round ${round}`,
          );
        const rates = results.map((result) => result.requestsPerSecond);
        const sum = rates.reduce((total, rate) => total + rate, 0);
        sums.push(sum);
        console.log(
          `replicas postgresql ${scenario} round ${round}: ${rates.map((rate) => rate.toFixed(0)).join(" + ")} = ${sum.toFixed(0)} req/s; ` +
            `CPU µs per request: replicas ${cpu.api.at(-1)!.toFixed(0)}, PostgreSQL ${cpu.postgres.at(-1)!.toFixed(0)}`,
        );
      }
      console.log(
        `replicas postgresql ${scenario} median ${median(sums).toFixed(0)} req/s (rounds ${sums.map((sum) => sum.toFixed(0)).join(", ")}); ` +
          `CPU µs per request, median: replicas ${median(cpu.api).toFixed(0)}, PostgreSQL ${median(cpu.postgres).toFixed(0)}`,
      );
    }
  } finally {
    await Promise.all(servers.map((server) => stopServer(server)));
    rmSync(work, { recursive: true, force: true });
  }
  return 0;
}

await runIfEntry(import.meta.url, main);
