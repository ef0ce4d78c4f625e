/**
 * The load generator: wrk (C, one thread on its own core), driven by a Lua
 * script the bench writes per run. A Node.js generator on a 2-core machine
 * competes with the server under test for CPU and saturates before a fast
 * server does, which pulls every ratio towards 1; wrk pinned to one core and
 * the server to the other keeps the two apart (issue 23).
 *
 * Counting: wrk's `summary.errors.status` counts responses with a status of
 * 400 or above; connect/read/write errors and timeouts are counted apart. A 3xx
 * would pass unnoticed, but no scenario can answer one (the probes in run.ts
 * check every server's answers first). Defining a Lua `response()` to see each
 * status would make wrk parse every body, a cost on the generator's core.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { scenarioPath, type LoadJob, type LoadResult } from "./scenarios.js";
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
  if (availableParallelism() < 2) throw new Error(`the bench pins wrk and the server to two different cores; this machine has ${availableParallelism()}`);
  if (!existsSync("/usr/bin/taskset")) throw new Error("taskset is missing (Debian package util-linux)");
  let wrk = WRK_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!wrk) {
    if (process.getuid?.() !== 0) throw new Error("wrk is missing: install it with `sudo apt-get install -y wrk` (Debian package wrk), then rerun");
    log("wrk is missing: apt-get install -y wrk");
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "wrk"], { stdio: ["ignore", "ignore", "inherit"] });
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
 * The Lua script of one run: the request (fixed, or built per request for
 * getPet's random id and createPet's unique body) and a `done()` that prints
 * the summary as one JSON line, so nothing parses wrk's text.
 */
export function wrkScript(job: LoadJob, runTag: string): string {
  const lines = [`wrk.headers["Authorization"] = ${luaString(`Bearer ${job.apiKey}`)}`];
  if (job.scenario === "getPet") {
    lines.push(
      `function init(args) math.randomseed(${Math.floor(Math.random() * 2 ** 31)}) end`,
      `function request() return wrk.format("GET", "/v1/pets/" .. math.random(1, ${job.maxId})) end`,
    );
  } else if (job.scenario === "createPet") {
    lines.push(
      `wrk.headers["Content-Type"] = "application/json"`,
      "local created = 0",
      "function request()",
      "  created = created + 1",
      `  local body = '{"name":"bench ${runTag}-' .. created .. '","categoryId":' .. (1 + created % 10) .. ',"status":"available"}'`,
      `  return wrk.format("POST", "/v1/pets", nil, body)`,
      "end",
    );
  } else {
    lines.push(`wrk.method = "GET"`, `wrk.path = ${luaString(scenarioPath(job.scenario))}`);
  }
  lines.push(
    // One hold per connection: the first `connections` requests are each connection's first (a second waits for a first's answer).
    `local held = ${job.connections}`,
    `function delay() if held > 0 then held = held - 1 return ${ADMISSION_HOLD_MS} end return 0 end`,
    "function done(summary, latency, requests)",
    "  local e = summary.errors",
    `  io.write(string.format('BENCH_RESULT {"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d}\\n',`,
    "    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status, e.connect, e.read, e.write, e.timeout))",
    "end",
  );
  return `${lines.join("\n")}\n`;
}

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
    "-c", String(GENERATOR_CPU), wrk,
    "--threads", "1",
    "--connections", String(job.connections),
    "--duration", `${Math.max(1, Math.round(job.durationSeconds))}s`,
    // createPet waits for an fsync: a slow answer is a slow answer, not a timeout.
    "--timeout", "10s",
    "--script", script,
    job.url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("taskset", args, { stdio: ["ignore", "pipe", "pipe"] });
    // Busy shares from after the hold (and wrk's start), when the load runs.
    const loadFrom = process.hrtime.bigint() + BigInt((ADMISSION_HOLD_MS + 50) * 1e6);
    const samples: CpuSample[] = [];
    const sampler = setInterval(() => {
      const sample = { atNs: process.hrtime.bigint(), generatorNs: processCpuNs(child.pid!), serverNs: processCpuNs(serverPid) };
      if (sample.atNs >= loadFrom && Number.isFinite(sample.generatorNs) && Number.isFinite(sample.serverNs)) samples.push(sample);
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
      if (code !== 0 || !line) return reject(new Error(`wrk exited ${code} without a result: ${(err || out).slice(-1000)}`));
      const summary = JSON.parse(line.slice("BENCH_RESULT ".length)) as WrkSummary;
      resolve({
        requestsPerSecond: summary.requests / (summary.durationUs / 1e6 - ADMISSION_HOLD_MS / 1000),
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
