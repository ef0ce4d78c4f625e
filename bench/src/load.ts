/**
 * The load generator, run as its own process by run.ts so that it never shares
 * an event loop with the server under test. Reads one LoadJob (JSON) from argv,
 * drives autocannon, prints one LoadResult (JSON) on stdout.
 */
import autocannon from "autocannon";
import { scenarioPath, type LoadJob, type LoadResult } from "./scenarios.js";

const job = JSON.parse(process.argv[2] ?? "{}") as LoadJob;

function randomId(): number {
  return 1 + Math.floor(Math.random() * job.maxId);
}

let created = 0;
const request: autocannon.Request =
  job.scenario === "getPet"
    ? { method: "GET", setupRequest: (req) => ({ ...req, path: `/v1/pets/${randomId()}` }) }
    : job.scenario === "createPet"
      ? {
          method: "POST",
          setupRequest: (req) => {
            created++;
            return {
              ...req,
              path: "/v1/pets",
              body: JSON.stringify({ name: `bench ${process.pid}-${created}`, categoryId: 1 + (created % 10), status: "available" }),
            };
          },
        }
      : { method: "GET", path: scenarioPath(job.scenario) };

const instance = autocannon(
  {
    url: job.url,
    connections: job.connections,
    pipelining: 1,
    duration: job.durationSeconds,
    headers: { authorization: `Bearer ${job.apiKey}`, "content-type": "application/json" },
    requests: [request],
  },
  (error, result) => {
    if (error) {
      console.error(String(error));
      process.exit(1);
    }
    const out: LoadResult = {
      requestsPerSecond: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      total: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      statusCodes: Object.fromEntries(
        Object.entries((result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {}).map(
          ([code, stat]) => [code, stat.count],
        ),
      ),
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  },
);
process.once("SIGTERM", () => instance.stop());
