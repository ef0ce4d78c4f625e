/**
 * The load generator: wrk (C, one thread on its own core), driven by a Lua
 * script the bench writes per run. A Node.js generator on a 2-core machine
 * competes with the server under test for CPU and saturates before a fast
 * server does, which pulls every ratio towards 1; wrk pinned to one core and
 * the server to the other keeps the two apart (issue 23).
 *
 * Counting: wrk's `summary.errors.status` counts responses with a status of
 * 400 or above; connect/read/write errors and timeouts are counted apart. A 3xx
 * would pass unnoticed, but no scenario can answer one (the probes in answers.ts
 * check every server's answers first). Defining a Lua `response()` to see each
 * status would make wrk parse every body, a cost on the generator's core.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import {
  isWriteScenario,
  scenarioPath,
  type LoadJob,
  type LoadResult,
  type Scenario,
  type SliceSum,
} from "./scenarios.js";
import { processCpuNs } from "./server-process.js";

/** The cores: wrk on the first, the server under test on the second (database servers are not pinned). */
export const GENERATOR_CPU = 0;
export const SERVER_CPU = 1;

const WRK_CANDIDATES = ["/usr/bin/wrk", "/usr/local/bin/wrk"];

/**
 * The bench's set-up: wrk and taskset present (wrk installed from Debian's
 * packages when missing and running as root), and two cores to pin to.
 * Returns wrk's path; throws with one line saying what to do otherwise.
 */
export function ensureLoadGenerator(log: (message: string) => void): string {
  if (availableParallelism() < 2)
    throw new Error(
      `the bench pins wrk and the server to two different cores; this machine has ${availableParallelism()}`,
    );
  if (!existsSync("/usr/bin/taskset")) throw new Error("taskset is missing (Debian package util-linux)");
  let wrk = WRK_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!wrk) {
    if (process.getuid?.() !== 0)
      throw new Error("wrk is missing: install it with `sudo apt-get install -y wrk` (Debian package wrk), then rerun");
    log("wrk is missing: apt-get install -y wrk");
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "wrk"], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    wrk = WRK_CANDIDATES.find((candidate) => existsSync(candidate));
    if (!wrk) throw new Error("apt-get install -y wrk did not install /usr/bin/wrk");
  }
  return wrk;
}

/**
 * Every wrk run opens its connections at once, and Node accepts one connection
 * per event-loop turn (libuv >= 1.45: libuv/libuv#3696). Against a server
 * already answering the first connections, the k-th waits about k turns of
 * ever more requests: 32 connections of a 0.6 ms request are all admitted only
 * after ~300 ms. wrk then corrects those first answers for coordinated
 * omission (it adds samples between each slow answer and the run's mean
 * interval), so in a 2 s run that start-up ramp, not the requests, decided the
 * p99, and it grows with the square of a request's cost. So each connection's
 * first request waits this long (wrk's `delay()`), while the server is idle and
 * admits every connection; the figures are of the rest of the run
 * (docs/decisions/017-bench-admission-hold.md).
 */
export const ADMISSION_HOLD_MS = 100;

const luaString = (value: string) => JSON.stringify(value); // a JSON string literal is a valid Lua string literal for ASCII

/**
 * With a reference key, the key a request carries alternates every slice
 * between the job's key and the reference, within one run on the same
 * connections: both keys meet the same moments of the machine, where two
 * separate 2 s runs met different ones (a neighbour's burst on the shared host
 * moves a 2 s run by 10-20 %; decision 018). A slice is long enough for many
 * requests after its first `connections` (which keySliceSums leaves out):
 * a write (createPet, updatePet) waits ~40 ms for its commit, so its slices are longer.
 */
export const keySliceMs = (scenario: Scenario): number => (isWriteScenario(scenario) ? 250 : 100);

/**
 * The Lua expression that builds one request of the job's scenario: `headers`
 * names the Lua table of headers (`nil`: wrk.headers), `counter` (the writes'
 * only) the Lua variable that numbers their bodies, each name unique in the run.
 * updatePet's calls `updateRequest`, which requestFunctions defines.
 */
function requestExpression(job: LoadJob, runTag: string, headers: string, counter?: string): string {
  if (job.scenario === "getPet") return `wrk.format("GET", "/v1/pets/" .. math.random(1, ${job.maxId}), ${headers})`;
  if (isWriteScenario(job.scenario) && counter === undefined)
    throw new Error(`${job.scenario}'s request needs a counter to number its bodies`);
  if (job.scenario === "createPet") {
    return `wrk.format("POST", "/v1/pets", ${headers}, '{"name":"bench ${runTag}-' .. ${counter} .. '","categoryId":' .. (1 + ${counter} % 100) .. ',"status":"available"}')`;
  }
  if (job.scenario === "updatePet") return `updateRequest(${headers}, ${counter})`;
  return `wrk.format("GET", ${luaString(scenarioPath(job.scenario))}, ${headers})`;
}

/**
 * Lua functions a scenario's request expression calls, defined before `request()`. updatePet's
 * `updateRequest(headers, n)`: a seeded pet picked uniformly in 1..maxId (so the writes spread over the
 * table, not one row's lock or page), patched with scenarios.ts's updatePatch: a `test` of its seeded
 * category (1 + id % 100, never changed by the bench) and a `replace` of its name by one unique in the run.
 */
function requestFunctions(job: LoadJob, runTag: string): string[] {
  if (job.scenario !== "updatePet") return [];
  return [
    "local function updateRequest(headers, n)",
    `  local id = math.random(1, ${job.maxId})`,
    `  local body = '[{"op":"test","path":"/categoryId","value":' .. (1 + id % 100) .. '},{"op":"replace","path":"/name","value":"bench ${runTag}-' .. n .. '"}]'`,
    `  return wrk.format("PATCH", "/v1/pets/" .. id, headers, body)`,
    "end",
  ];
}

/**
 * The Lua script of one run: the request (fixed, or built per request for
 * getPet's random id, createPet's unique body and updatePet's random pet and
 * unique name) and a `done()` that prints the summary as one JSON line, so
 * nothing parses wrk's text.
 */
export function wrkScript(job: LoadJob, runTag: string): string {
  if (job.referenceKey !== undefined) return keySlicedScript(job, runTag);
  const lines = [`wrk.headers["Authorization"] = ${luaString(`Bearer ${job.apiKey}`)}`];
  if (job.scenario === "getPet") {
    lines.push(
      `function init(args) math.randomseed(${Math.floor(Math.random() * 2 ** 31)}) end`,
      `function request() return ${requestExpression(job, runTag, "nil")} end`,
    );
  } else if (isWriteScenario(job.scenario)) {
    lines.push(
      `wrk.headers["Content-Type"] = "application/json"`,
      `function init(args) math.randomseed(${Math.floor(Math.random() * 2 ** 31)}) end`,
      ...requestFunctions(job, runTag),
      "local sent = 0",
      "function request()",
      "  sent = sent + 1",
      `  return ${requestExpression(job, runTag, "nil", "sent")}`,
      "end",
    );
  } else {
    lines.push(`wrk.method = "GET"`, `wrk.path = ${luaString(scenarioPath(job.scenario))}`);
  }
  lines.push(...admissionHold(job), ...printSummary());
  return `${lines.join("\n")}\n`;
}

/** One hold per connection: the first `connections` requests are each connection's first (a second waits for a first's answer). */
const admissionHold = (job: LoadJob) => [
  `local held = ${job.connections}`,
  `function delay() if held > 0 then held = held - 1 return ${ADMISSION_HOLD_MS} end return 0 end`,
];

/** `done()`: the summary as one JSON line; `extra` runs first (the key slices' line). */
const printSummary = (extra: string[] = []) => [
  "function done(summary, latency, requests)",
  ...extra,
  "  local e = summary.errors",
  `  io.write(string.format('BENCH_RESULT {"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d}\\n',`,
  "    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status, e.connect, e.read, e.write, e.timeout))",
  "end",
];

/**
 * The key-sliced script: slice n (n = 0, 1, ... from the first request after
 * the hold, keySliceMs each, on CLOCK_MONOTONIC through LuaJIT's ffi) carries
 * the reference key when n is even and `referenceFirst`, or odd and not. Per
 * slice it counts the requests sent and notes when the `connections`-th was
 * sent; `done()` prints them (`BENCH_SLICES count@ms,...`) for keySliceSums.
 */
function keySlicedScript(job: LoadJob, runTag: string): string {
  const build = requestExpression(job, runTag, "headers", "sent");
  const sliceMs = keySliceMs(job.scenario);
  const [evenKey, oddKey] = job.referenceFirst ? [job.referenceKey!, job.apiKey] : [job.apiKey, job.referenceKey!];
  return `${[
    'local ffi = require("ffi")',
    "ffi.cdef[[ typedef struct { long tv_sec; long tv_nsec; } bench_timespec; int clock_gettime(int clock, bench_timespec *now); ]]",
    'local clock = ffi.new("bench_timespec")',
    "local function nowMs() ffi.C.clock_gettime(1, clock) return tonumber(clock.tv_sec) * 1000 + tonumber(clock.tv_nsec) / 1e6 end",
    `function init(args) math.randomseed(${Math.floor(Math.random() * 2 ** 31)}) end`,
    ...requestFunctions(job, runTag),
    // Built at the first request: by then wrk.headers holds the Host that wrk's own init added.
    "local headersOf = nil",
    "local function keyHeaders(key)",
    "  local headers = {}",
    "  for name, value in pairs(wrk.headers) do headers[name] = value end",
    '  headers["Authorization"] = "Bearer " .. key',
    ...(isWriteScenario(job.scenario) ? ['  headers["Content-Type"] = "application/json"'] : []),
    "  return headers",
    "end",
    "local startMs = nil",
    "local sent = 0",
    "local verified = false",
    // Globals: done() runs in another Lua state and reads them with thread:get.
    "sliceCounts = {}",
    "sliceCleanFromMs = {}",
    ...admissionHold(job),
    "function request()",
    // wrk builds one request at start-up to check it (script_verify_request): not sent, so not counted.
    `  if not verified then verified = true local headers = wrk.headers return ${build} end`,
    "  local now = nowMs()",
    `  if not startMs then startMs = now headersOf = { [0] = keyHeaders(${luaString(evenKey)}), [1] = keyHeaders(${luaString(oddKey)}) } end`,
    `  local slice = math.floor((now - startMs) / ${sliceMs})`,
    "  local count = (sliceCounts[slice] or 0) + 1",
    "  sliceCounts[slice] = count",
    `  if count == ${job.connections} then sliceCleanFromMs[slice] = now - startMs - slice * ${sliceMs} end`,
    "  sent = sent + 1",
    "  local headers = headersOf[slice % 2]",
    `  return ${build}`,
    "end",
    "local threads = {}",
    "function setup(thread) table.insert(threads, thread) end",
    ...printSummary([
      '  local counts = threads[1]:get("sliceCounts")',
      '  local cleanFrom = threads[1]:get("sliceCleanFromMs")',
      "  local slices = {}",
      "  local last = -1",
      "  for slice in pairs(counts) do if slice > last then last = slice end end",
      '  for slice = 0, last do slices[#slices + 1] = (counts[slice] or 0) .. "@" .. string.format("%.3f", cleanFrom[slice] or -1) end',
      '  io.write("BENCH_SLICES " .. table.concat(slices, ",") .. "\\n")',
    ]),
  ].join("\n")}\n`;
}

/**
 * The two keys' requests and time from the slices of a key-sliced run. A
 * slice's first `connections` requests are sent as the previous slice's
 * requests are answered, so the server is still working for the other key:
 * each slice counts from its `connections`-th request to its end (a slice that
 * never got that far counts nothing). The first slice follows the idle hold
 * and the last is cut short by the end of the run: both are dropped, and the
 * rest taken in whole pairs, so each key has as many slices.
 */
export function keySliceSums(
  slices: readonly { count: number; cleanFromMs: number }[],
  { connections, referenceFirst, sliceMs }: { connections: number; referenceFirst: boolean; sliceMs: number },
): { key: SliceSum; reference: SliceSum } {
  const sums: [SliceSum, SliceSum] = [
    { requests: 0, ms: 0 },
    { requests: 0, ms: 0 },
  ];
  const pairs = Math.floor((slices.length - 2) / 2);
  for (let slice = 1; slice <= 2 * pairs; slice++) {
    const { count, cleanFromMs } = slices[slice]!;
    if (count <= connections || cleanFromMs < 0) continue;
    sums[slice % 2]!.requests += count - connections;
    sums[slice % 2]!.ms += sliceMs - cleanFromMs;
  }
  const [even, odd] = sums;
  return referenceFirst ? { key: odd, reference: even } : { key: even, reference: odd };
}

/** Requests per second of a key's slices (NaN without any). */
export const sliceRate = ({ requests, ms }: SliceSum): number => (ms > 0 ? (requests * 1000) / ms : NaN);

interface WrkSummary {
  requests: number;
  durationUs: number;
  p50Us: number;
  p99Us: number;
  status: number;
  connect: number;
  read: number;
  write: number;
  timeout: number;
}

let runs = 0;

interface CpuSample {
  atNs: bigint;
  generatorNs: number;
  serverNs: number;
}
/** How busy each process kept its core between two samples: CPU time over wall time (1 = the whole core). */
const busy = (first: CpuSample | undefined, last: CpuSample | undefined, pick: (sample: CpuSample) => number) =>
  first && last && last.atNs > first.atNs ? (pick(last) - pick(first)) / Number(last.atNs - first.atNs) : NaN;

/**
 * One wrk run on GENERATOR_CPU: 1 thread, `job.connections` connections,
 * `job.durationSeconds` whole seconds. While it runs, wrk's and the server's
 * CPU time are sampled every 100 ms (10 ms ticks): the first and last samples
 * give how busy each kept its core, the proof of which of the two was the bottleneck.
 */
export function runLoad(wrk: string, job: LoadJob, scriptDir: string, serverPid: number): Promise<LoadResult> {
  const runTag = `${process.pid}-${++runs}`;
  const script = path.join(scriptDir, `wrk-${runTag}.lua`);
  writeFileSync(script, wrkScript(job, runTag));
  const args = [
    "-c",
    String(GENERATOR_CPU),
    wrk,
    "--threads",
    "1",
    "--connections",
    String(job.connections),
    "--duration",
    `${Math.max(1, Math.round(job.durationSeconds))}s`,
    // A write waits for an fsync: a slow answer is a slow answer, not a timeout.
    "--timeout",
    "10s",
    "--script",
    script,
    job.url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("taskset", args, { stdio: ["ignore", "pipe", "pipe"] });
    // Busy shares from after the hold (and wrk's start), when the load runs.
    const loadFrom = process.hrtime.bigint() + BigInt((ADMISSION_HOLD_MS + 50) * 1e6);
    const samples: CpuSample[] = [];
    const sampler = setInterval(() => {
      const sample = {
        atNs: process.hrtime.bigint(),
        generatorNs: processCpuNs(child.pid!),
        serverNs: processCpuNs(serverPid),
      };
      if (sample.atNs >= loadFrom && Number.isFinite(sample.generatorNs) && Number.isFinite(sample.serverNs))
        samples.push(sample);
    }, 100);
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.once("error", (error) => {
      clearInterval(sampler);
      reject(error);
    });
    child.once("exit", (code) => {
      clearInterval(sampler);
      const line = out.split("\n").find((l) => l.startsWith("BENCH_RESULT "));
      if (code !== 0 || !line)
        return reject(new Error(`wrk exited ${code} without a result: ${(err || out).slice(-1000)}`));
      const summary = JSON.parse(line.slice("BENCH_RESULT ".length)) as WrkSummary;
      const slicesLine = out.split("\n").find((l) => l.startsWith("BENCH_SLICES "));
      const keySlices =
        job.referenceKey === undefined
          ? undefined
          : keySliceSums(
              (slicesLine?.slice("BENCH_SLICES ".length).split(",") ?? []).map((slice) => {
                const [count, cleanFromMs] = slice.split("@").map(Number) as [number, number];
                return { count, cleanFromMs };
              }),
              {
                connections: job.connections,
                referenceFirst: job.referenceFirst ?? false,
                sliceMs: keySliceMs(job.scenario),
              },
            );
      resolve({
        requestsPerSecond: keySlices
          ? sliceRate(keySlices.key)
          : summary.requests / (summary.durationUs / 1e6 - ADMISSION_HOLD_MS / 1000),
        ...(keySlices && { keySlices }),
        p50Ms: summary.p50Us / 1000,
        p99Ms: summary.p99Us / 1000,
        total: summary.requests,
        non2xx: summary.status,
        errors: summary.connect + summary.read + summary.write,
        timeouts: summary.timeout,
        generatorBusy: busy(samples[0], samples.at(-1), (sample) => sample.generatorNs),
        serverBusy: busy(samples[0], samples.at(-1), (sample) => sample.serverNs),
      });
    });
  });
}
