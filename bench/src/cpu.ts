/**
 * node dist/cpu.js [options]: CPU time per request, a measure a busy machine does
 * not move much (wall-clock req/s on a shared 2-core box moves by 2x).
 *
 * For each round, target and scenario: a fresh server on a fresh copy of the
 * seeded database, a warm-up, then a fixed number of requests (autocannon in this
 * process, 10 connections); the figure is the server's CPU time (user + system,
 * every thread, from /proc/<pid>/task/<tid>/schedstat, in ns) spent over the
 * measured requests, divided by them. Prints `cpu <provider> <target> <scenario>
 * <µs/request>` lines, then the median per target and scenario and, per floor, the
 * floor's CPU over the API's (`production/api` comparable to `ratio-floor`, the
 * production floor's line; `bare/api` to `ratio-bare`, the bare Express floor's).
 *
 * The API runs as in production, as run.ts starts it (servers.ts): its `start` script's
 * file, NODE_ENV=production, LOG_LEVEL=info to a file, METRICS_TOKEN set,
 * rate-limit counting on (a limit high enough never to refuse the run). The
 * load comes from autocannon in this process: a server's CPU time per request
 * does not depend on how fast the generator is, so this is a second opinion
 * on run.ts's wrk figures that another process's load moves much less.
 *
 * --issued: the API only, one process per round, an issued `psk_` key (made by
 * `keys create`) against a configured one: after a warm-up of each, PAIRS pairs of
 * SLICE requests alternate the two keys (configured first in even pairs, issued
 * first in odd ones), so both meet the same moments of the machine; prints
 * `cpu-issued <provider> <scenario> <x>`, the median over the pairs of the
 * configured key's CPU per request over the issued key's (comparable to
 * run.ts's `ratio-issued`: above 1, the issued key is cheaper). Options
 * --pairs=N (default 8) --slice=N (default 5000).
 *
 * --webhooks: the API only, createPet only, one process per round, its webhook sender
 * paused: PAIRS pairs of SLICE creates (default 2000) alternate with WEBHOOK_ENDPOINTS
 * endpoints registered (through the admin API, deleted after the slice) and with none
 * (none first in even pairs); prints `cpu-webhooks <provider> createPet <x>`, the median
 * over the pairs of none's CPU per request over the endpoints' (comparable to run.ts's
 * `ratio-webhooks`: below 1, the outbox costs the request path).
 *
 * --streams: the API only, createPet only, one process per round: PAIRS pairs of SLICE creates (default
 * 2000) alternate with STREAMS (100) event streams open (`GET /v1/events/stream`, clients in this process,
 * closed after the slice) and with none (none first in even pairs); prints `cpu-streams <provider> createPet
 * <x>`, the median over the pairs of none's CPU per request over the streams' (below 1: the open streams
 * cost the request path), and `stream-fanout <provider> <events/s>`: the events the API delivered to all
 * the streams per second while they were open (each create's event once to each stream).
 *
 * --token: as --issued, but the issued key against a `pst_` session token started with it
 * (session-token.ts: `POST /admin/v1/session/start`, then `/admin/v1/session/token`),
 * minted at each round's start (it lasts 10 minutes); prints `cpu-token <provider>
 * <scenario> <x>`, the median over the pairs of the issued key's CPU per request over the
 * token's (the goal: the token within 5 % of the issued key).
 *
 * Options: --targets=api,production,bare,baseline (default api,production,bare; `express` is read as
 * `production`) --scenarios=getPet,... (by default those every server serves; updatePet, the API's
 * own, only when named, with --targets=api) --requests=N
 * (default 20000) --warmup=N (default 3000) --rounds=N (default 3) --rows=N
 * (default 10000) --api-env=K=V[,K=V] (extra environment for the API, e.g.
 * METRICS_TOKEN= to price a feature) --postgres (PostgreSQL instead of SQLite) --cpu-prof (API
 * under node --cpu-prof, profiles in bench/results/cpu-<stamp>/)
 * Env: BENCH_API_MAIN (another build of the API), BENCH_PG_URL.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freshSqliteCopy } from "./databases.js";
import { runIfEntry } from "./entry.js";
import { createIssuedKey } from "./issued-key.js";
import { createSessionToken } from "./session-token.js";
import { openStreams, STREAMS } from "./event-streams.js";
import { deleteEndpoints, registerEndpoints, startReceiver, WEBHOOK_ENDPOINTS, webhookEnv } from "./webhooks.js";
import { parseCpuOptions } from "./options.js";
import { scenarioPath, updatePatch, type Scenario } from "./scenarios.js";
import { seedPostgres, seedSqlite } from "./seed.js";
import { cpuNs, peakRssMb, stopServer, writtenBytes, type RunningServer } from "./server-process.js";
import {
  API_KEY,
  apiCommand,
  measuredApiRoot,
  migrateForBuild,
  PG_BENCH_URL,
  RESULTS,
  startBenchServer,
  timeStamp,
} from "./servers.js";
import { upperMedian as median } from "./statistics.js";
import type { ServerKind } from "./targets.js";

let created = 0;
/** `amount` requests of the scenario (autocannon, 10 connections) with `apiKey`; getPet asks for ids in 1..rows. */
function load(
  url: string,
  scenario: Scenario,
  amount: number,
  rows: number,
  apiKey = API_KEY,
): Promise<autocannon.Result> {
  const request: autocannon.Request =
    scenario === "getPet"
      ? { method: "GET", setupRequest: (req) => ({ ...req, path: `/v1/pets/${1 + Math.floor(Math.random() * rows)}` }) }
      : scenario === "createPet"
        ? {
            method: "POST",
            setupRequest: (req) => ({
              ...req,
              path: "/v1/pets",
              body: JSON.stringify({ name: `cpu ${++created}`, categoryId: 1 + (created % 10), status: "available" }),
            }),
          }
        : scenario === "updatePet"
          ? {
              // The API only (the floors do not serve it): a seeded pet at random, its name replaced (run.ts's patch).
              method: "PATCH",
              setupRequest: (req) => {
                const id = 1 + Math.floor(Math.random() * rows);
                return { ...req, path: `/v1/pets/${id}`, body: updatePatch(id, `cpu ${++created}`) };
              },
            }
          : { method: "GET", path: scenarioPath(scenario) };
  return autocannon({
    url,
    connections: 10,
    amount,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    requests: [request],
  });
}

/** The server's CPU µs per request over `amount` requests with `apiKey`; throws on any non-2xx or error. */
async function cpuPerRequest(
  server: RunningServer,
  target: ServerKind,
  scenario: Scenario,
  amount: number,
  rows: number,
  apiKey = API_KEY,
): Promise<number> {
  const before = cpuNs(server.child.pid!);
  const result = await load(server.url, scenario, amount, rows, apiKey);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target} ${scenario}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return (cpuNs(server.child.pid!) - before) / 1000 / result.requests.total;
}

export async function main(argv: readonly string[]): Promise<number> {
  const {
    postgres,
    cpuProf,
    issued,
    webhooks,
    token,
    streams,
    targets,
    pairs,
    slice,
    scenarios,
    requests,
    warmup,
    rounds,
    rows,
    apiEnv,
  } = parseCpuOptions(argv);
  apiCommand();
  const provider = postgres ? "postgresql" : "sqlite";
  const work = mkdtempSync(path.join(tmpdir(), "petstore-cpu-"));
  const profDir = path.join(RESULTS, `cpu-${timeStamp()}`);
  if (cpuProf) mkdirSync(profDir, { recursive: true });

  let template = "";
  if (postgres) {
    await migrateForBuild(PG_BENCH_URL);
    await seedPostgres(PG_BENCH_URL, rows);
  } else {
    template = path.join(work, "template.db");
    await migrateForBuild(`file:${template}`);
    seedSqlite(template, rows);
  }

  const issuedKey =
    issued || token ? createIssuedKey(measuredApiRoot(), postgres ? PG_BENCH_URL : `file:${template}`) : "";
  const issuedRatios = new Map<Scenario, number[]>();
  const webhookRatios: number[] = [];
  const streamRatios: number[] = [];
  const fanouts: number[] = [];
  const receiver = webhooks ? await startReceiver() : undefined;

  const results = new Map<string, number[]>();
  const peaks = new Map<ServerKind, number[]>();
  try {
    for (let round = 0; round < rounds; round++) {
      // Alternate the order, so neither server always runs first.
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        let databaseUrl = PG_BENCH_URL;
        if (!postgres) {
          const file = path.join(work, `${target}.db`);
          freshSqliteCopy(template, file);
          databaseUrl = `file:${file}`;
        } else {
          await seedPostgres(PG_BENCH_URL, rows);
        }
        const name = `${target}-${round}`;
        const server = await startBenchServer(target, {
          databaseUrl,
          // One file per server, deleted with the work folder: the figures need the writes, not the lines.
          logFile: path.join(work, `${name}.log`),
          cwd: work,
          profile: cpuProf ? { dir: profDir, name } : undefined,
          apiEnv: webhooks ? { ...webhookEnv("paused"), ...apiEnv } : apiEnv,
        });
        const { url, child } = server;
        try {
          for (const scenario of scenarios) {
            await load(url, scenario, warmup, rows);
            if (streams) {
              for (let pair = 0; pair < pairs; pair++) {
                const cpu = { none: 0, streams: 0 };
                for (const side of pair % 2 === 0 ? (["none", "streams"] as const) : (["streams", "none"] as const)) {
                  const open = side === "streams" ? await openStreams(url, API_KEY, STREAMS) : undefined;
                  // Opening (or closing) a hundred connections is not a create's cost: let it settle first.
                  await new Promise((resolve) => setTimeout(resolve, 500));
                  const started = performance.now();
                  cpu[side] = await cpuPerRequest(server, target, scenario, slice, rows);
                  if (open) {
                    // The last events of the slice are read within the streams' 250 ms poll: wait for them.
                    const expected = slice * STREAMS;
                    const deadline = performance.now() + 3_000;
                    while (open.received < expected && performance.now() < deadline)
                      await new Promise((resolve) => setTimeout(resolve, 20));
                    fanouts.push((open.received * 1000) / (performance.now() - started));
                    if (open.received < expected)
                      console.log(`  streams received ${open.received} of ${expected} events`);
                    open.close();
                  }
                }
                console.log(
                  `cpu ${provider} api ${scenario} pair ${pair + 1}: none ${cpu.none.toFixed(1)}, ${STREAMS} streams ${cpu.streams.toFixed(1)} µs/request`,
                );
                streamRatios.push(cpu.none / cpu.streams);
              }
              continue;
            }
            if (receiver) {
              for (let pair = 0; pair < pairs; pair++) {
                const cpu = { none: 0, endpoints: 0 };
                for (const side of pair % 2 === 0
                  ? (["none", "endpoints"] as const)
                  : (["endpoints", "none"] as const)) {
                  const ids =
                    side === "endpoints" ? await registerEndpoints(url, API_KEY, receiver.url, WEBHOOK_ENDPOINTS) : [];
                  cpu[side] = await cpuPerRequest(server, target, scenario, slice, rows);
                  await deleteEndpoints(url, API_KEY, ids);
                }
                console.log(
                  `cpu ${provider} api ${scenario} pair ${pair + 1}: none ${cpu.none.toFixed(1)}, ${WEBHOOK_ENDPOINTS} endpoints ${cpu.endpoints.toFixed(1)} µs/request`,
                );
                webhookRatios.push(cpu.none / cpu.endpoints);
              }
              continue;
            }
            if (!issued && !token) {
              const writtenBefore = writtenBytes(child.pid!);
              const usPerRequest = await cpuPerRequest(server, target, scenario, requests, rows);
              const written = (writtenBytes(child.pid!) - writtenBefore) / requests;
              console.log(`cpu ${provider} ${target} ${scenario} ${usPerRequest.toFixed(1)}`);
              console.log(`written ${provider} ${target} ${scenario} ${(written / 1024).toFixed(2)} KiB/request`);
              const key = `${target} ${scenario}`;
              results.set(key, [...(results.get(key) ?? []), usPerRequest]);
              continue;
            }
            // --issued: the configured key against the issued one; --token: the issued key against its session's token.
            const [reference, measured] = token
              ? [issuedKey, await createSessionToken(url, issuedKey)]
              : [API_KEY, issuedKey];
            const names = token ? ["issued", "token"] : ["configured", "issued"];
            await load(url, scenario, warmup, rows, measured);
            for (let pair = 0; pair < pairs; pair++) {
              const order = pair % 2 === 0 ? [reference, measured] : [measured, reference];
              const cpu = new Map<string, number>();
              for (const key of order) cpu.set(key, await cpuPerRequest(server, target, scenario, slice, rows, key));
              const ratio = cpu.get(reference)! / cpu.get(measured)!;
              console.log(
                `cpu ${provider} api ${scenario} pair ${pair + 1}: ${names[0]} ${cpu.get(reference)!.toFixed(1)}, ${names[1]} ${cpu.get(measured)!.toFixed(1)} µs/request`,
              );
              issuedRatios.set(scenario, [...(issuedRatios.get(scenario) ?? []), ratio]);
            }
          }
          peaks.set(target, [...(peaks.get(target) ?? []), peakRssMb(child.pid!)]);
        } finally {
          await stopServer(server);
        }
      }
    }
  } finally {
    await receiver?.close();
    rmSync(work, { recursive: true, force: true });
  }

  if (streams) {
    console.log(
      `\nnone ÷ ${STREAMS} open streams, CPU per createPet, median over ${rounds} × ${pairs} pairs of ${slice} requests (${provider}, ${rows} rows)`,
    );
    console.log(
      `cpu-streams ${provider} createPet ${median(streamRatios).toFixed(3)} (pairs ${streamRatios.map((ratio) => ratio.toFixed(3)).join(", ")})`,
    );
    console.log(
      `stream-fanout ${provider} ${median(fanouts).toFixed(0)} events/s to ${STREAMS} streams (slices ${fanouts.map((rate) => rate.toFixed(0)).join(", ")})`,
    );
  } else if (webhooks) {
    console.log(
      `\nnone ÷ ${WEBHOOK_ENDPOINTS} endpoints, CPU per createPet, median over ${rounds} × ${pairs} pairs of ${slice} requests (${provider}, ${rows} rows)`,
    );
    console.log(
      `cpu-webhooks ${provider} createPet ${median(webhookRatios).toFixed(3)} (pairs ${webhookRatios.map((ratio) => ratio.toFixed(3)).join(", ")})`,
    );
  } else if (issued || token) {
    const [line, what] = token ? ["cpu-token", "issued key ÷ session token"] : ["cpu-issued", "configured ÷ issued"];
    console.log(
      `\n${what} CPU per request, median over ${rounds} × ${pairs} pairs of ${slice} requests (${provider}, ${rows} rows)`,
    );
    for (const [scenario, ratios] of issuedRatios)
      console.log(`${line} ${provider} ${scenario} ${median(ratios).toFixed(3)}`);
  } else {
    console.log(`\nmedian CPU µs/request over ${rounds} rounds of ${requests} (${provider}, ${rows} rows)`);
    for (const scenario of scenarios) {
      const figures = targets.map((target) => median(results.get(`${target} ${scenario}`) ?? [NaN]));
      // Each floor's CPU over the API's, comparable to ratio-floor (the production floor) and ratio-bare.
      const overApi = (["production", "bare"] as const)
        .filter((floor) => targets.includes(floor) && targets.includes("api"))
        .map(
          (floor) =>
            `  ${floor}/api ${(median(results.get(`${floor} ${scenario}`)!) / median(results.get(`api ${scenario}`)!)).toFixed(2)}`,
        );
      console.log(
        `${scenario.padEnd(38)} ${targets.map((t, i) => `${t} ${figures[i]!.toFixed(1)}`).join("  ")}${overApi.join("")}`,
      );
    }
    for (const [target, values] of peaks) console.log(`peak RSS ${target} ${median(values).toFixed(0)} MB`);
    if (cpuProf) console.log(`profiles in ${profDir}`);
  }
  return 0;
}

await runIfEntry(import.meta.url, main);
