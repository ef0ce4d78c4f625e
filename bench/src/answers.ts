/**
 * The answers the servers give. Before any load, the same requests must get
 * the same answers from every server, on every database: status, body and the
 * headers of the contract (Content-Type, Link, Deprecation, Sunset). The
 * production floor must also send the API's set of headers (names; values only
 * where they are not per request); a difference there is a warning in the
 * report, not a failure. A scenario a build may not serve (updatePet) is asked
 * once per target before it is loaded: 404 or 405 leaves that target out of it.
 * And when a run fails, one request shows what it was answered.
 */
import { rowsLabel } from "./format.js";
import { scenarioPath, seededCategoryOf, updatePatch, type LoadJob, type Scenario } from "./scenarios.js";
import type { RunningServer } from "./server-process.js";
import type { Provider, Target } from "./targets.js";

const CONTRACT_HEADERS = ["content-type", "link", "deprecation", "sunset"];
const PER_REQUEST_HEADERS = new Set(["date", "x-request-id", "content-length", "connection", "keep-alive", "etag"]);

/** The probes of one bench run: each answer against the first one to the same request on a dataset of that size (on either database). */
export class AnswerCheck {
  /** The production floor's header differences from the API's, one line per database and difference. */
  readonly headerWarnings: string[] = [];
  private readonly referenceAnswers = new Map<string, string>();
  private readonly seenHeaders = new Map<string, Map<string, string>>();

  constructor(private readonly log: (message: string) => void) {}

  /** Probes `server` (which serves `target`, with `apiKey`); throws when an answer differs from the reference. */
  async check(server: RunningServer, provider: Provider, target: Target, rows: number, apiKey: string): Promise<void> {
    const who = `${target} (${provider}, ${rowsLabel(rows)})`;
    for (const pathAndQuery of ["/v1/pets", "/v1/pets?status=available&limit=100", "/v1/pets/1", `/v1/pets/${rows}`]) {
      const response = await fetch(`${server.url}${pathAndQuery}`, { headers: { authorization: `Bearer ${apiKey}` } });
      const contract = CONTRACT_HEADERS.map((name) => `${name}: ${response.headers.get(name) ?? ""}`).join("; ");
      const answer = `${response.status} ${contract} ${await response.text()}`;
      const key = `${rows} ${pathAndQuery}`;
      const reference = this.referenceAnswers.get(key);
      if (reference === undefined) this.referenceAnswers.set(key, answer);
      else if (reference !== answer) {
        throw new Error(
          `${who} answers ${pathAndQuery} differently:\n  ${answer.slice(0, 400)}\n  expected ${reference.slice(0, 400)}`,
        );
      }
      // The production floor's header set is compared with the API's once, under the configured key (the bare
      // floor and the baseline leave the security headers and the request id out by design).
      if (target !== "api" && target !== "production") continue;
      const headers = new Map<string, string>();
      response.headers.forEach((value, name) => {
        if (!PER_REQUEST_HEADERS.has(name)) headers.set(name, value);
      });
      const headersKey = `${provider} ${key}`;
      this.seenHeaders.set(`${target} ${headersKey}`, headers);
      // Compared when the second of the two has answered (the order rotates).
      const api = this.seenHeaders.get(`api ${headersKey}`);
      const floor = this.seenHeaders.get(`production ${headersKey}`);
      if (api && floor) this.compareHeaders(provider, api, floor);
    }
  }

  /**
   * Whether `server` (serving `target` with `apiKey`) serves `scenario` (one of PROBED_SCENARIOS), by one
   * request that changes nothing (PROBES); called before any load of the dataset, and after `check`. updatePet: pet 1's
   * patch of a lone `test` of its seeded category (the API answers the pet as it is, writing nothing).
   * 2xx: it does (the answer is checked against the first one to the same probe, as `check`'s);
   * 404 or 405: it does not (a build before the operation: no route, or the path's other methods only);
   * anything else throws, as a wrong answer to `check` does: the bench could not load it without failures.
   */
  async servesScenario(
    server: RunningServer,
    provider: Provider,
    target: Target,
    rows: number,
    apiKey: string,
    scenario: Scenario,
  ): Promise<ScenarioProbe> {
    const probe = PROBES[scenario];
    if (!probe) throw new Error(`no probe for ${scenario}`);
    const who = `${target} (${provider}, ${rowsLabel(rows)})`;
    const response = await fetch(`${server.url}${probe.path}`, {
      method: probe.method,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      ...(probe.body ? { body: probe.body } : {}),
    });
    const answer = `${response.status} ${(await response.text()).slice(0, 300)}`;
    if (response.status === 404 || response.status === 405) return { served: false, answer };
    if (response.status < 200 || response.status > 299)
      throw new Error(
        `${who} answers ${scenario}'s probe (${probe.method} ${probe.path} ${probe.body ?? ""}) with ${answer}`,
      );
    const key = `${rows} ${probe.method} ${probe.path}`;
    const reference = this.referenceAnswers.get(key);
    if (reference === undefined) this.referenceAnswers.set(key, answer);
    else if (reference !== answer)
      throw new Error(`${who} answers ${scenario}'s probe differently:\n  ${answer}\n  expected ${reference}`);
    return { served: true, answer };
  }

  private compareHeaders(provider: Provider, api: Map<string, string>, floor: Map<string, string>): void {
    const apiOnly = [...api.keys()].filter((name) => !floor.has(name));
    const floorOnly = [...floor.keys()].filter((name) => !api.has(name));
    const changed = [...api.keys()]
      .filter((name) => floor.has(name) && api.get(name) !== floor.get(name))
      .map(
        (name) => `${name} (api ${JSON.stringify(api.get(name))}, production floor ${JSON.stringify(floor.get(name))})`,
      );
    const differences = [
      apiOnly.length ? `only the API sends ${apiOnly.join(", ")}` : "",
      floorOnly.length ? `only the production floor sends ${floorOnly.join(", ")}` : "",
      changed.length ? `values differ: ${changed.join("; ")}` : "",
    ].filter(Boolean);
    const warning = `${provider}: ${differences.join("; ")}`;
    if (differences.length > 0 && !this.headerWarnings.includes(warning)) {
      this.headerWarnings.push(warning);
      this.log(`warning: the production floor's headers differ from the API's on ${warning}`);
    }
  }
}

/** updatePet's probe: a patch of pet 1 that tests its seeded category and changes nothing. */
const PROBE_PATCH = JSON.stringify([{ op: "test", path: "/categoryId", value: seededCategoryOf(1) }]);

/** Each probed scenario's request that changes nothing (PROBED_SCENARIOS). */
const PROBES: Partial<Record<Scenario, { method: string; path: string; body?: string }>> = {
  updatePet: { method: "PATCH", path: "/v1/pets/1", body: PROBE_PATCH },
  getInventory: { method: "GET", path: "/v1/store/inventory" },
};

/** A probe's outcome: whether the target serves the scenario, and what it answered (status and the body's start). */
export interface ScenarioProbe {
  served: boolean;
  answer: string;
}

/** One request of the job's scenario, to show what a failing run was answered. */
export async function sampleAnswer(job: LoadJob): Promise<string> {
  const headers = { authorization: `Bearer ${job.apiKey}`, "content-type": "application/json" };
  const response =
    job.scenario === "getPet"
      ? await fetch(`${job.url}/v1/pets/1`, { headers })
      : job.scenario === "createPet"
        ? await fetch(`${job.url}/v1/pets`, {
            method: "POST",
            headers,
            body: JSON.stringify({ name: "bench sample", categoryId: 1, status: "available" }),
          })
        : job.scenario === "updatePet"
          ? await fetch(`${job.url}/v1/pets/1`, { method: "PATCH", headers, body: updatePatch(1, "bench sample") })
          : await fetch(`${job.url}${scenarioPath(job.scenario)}`, { headers });
  return `${response.status} ${(await response.text()).slice(0, 300)}`;
}
