/**
 * A rolling restart behind a real load balancer, as an operator runs one:
 * two replicas of the built API on one PostgreSQL database behind HAProxy
 * (Debian's package; .ci/run installs it), which checks `/readyz` every 200 ms
 * and neither retries nor redispatches. Eight keep-alive clients send lists,
 * reads and keyed creates while each replica in turn gets SIGTERM and a
 * successor takes its port. Not one request may fail: the replica's readiness
 * flips first, it keeps serving through the drain while HAProxy takes it out,
 * and only then closes.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import { Pet } from "@petstore/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAllPets, startApiProcess, waitUntilReady, type ApiProcess } from "../api-process.js";
import { haproxyMissing, startHaproxy, type Haproxy } from "../haproxy.js";
import { freshDatabase, TEST_KEY, TEST_PROVIDERS, type TestDatabase } from "../test-app.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CHECK_INTERVAL_MS = 200;
/** Well over two check intervals (fall 2), so HAProxy has taken the replica out before its listener closes. */
const DRAIN_MS = 1_500;
const CLIENTS = 8;
const headers = { Authorization: `Bearer ${TEST_KEY}` };

/** In CI a missing haproxy fails the file; elsewhere it is skipped with one warning, as a missing PostgreSQL is. */
function haproxyAvailable(): boolean {
  const problem = haproxyMissing();
  if (!problem) return true;
  if (process.env["CI"]) throw new Error(`haproxy is required in CI: ${problem}`);
  console.warn(`rolling-restart test not run: ${problem}. .ci/run installs it (apt-get install haproxy).`);
  return false;
}

interface Answer {
  status: number;
  body: string;
}

describe.runIf(TEST_PROVIDERS.includes("postgresql") && haproxyAvailable())("rolling restart behind HAProxy", () => {
  let database: TestDatabase;
  const replicas: ApiProcess[] = [];
  let haproxy: Haproxy | undefined;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

  const startReplica = (port = 0) =>
    startApiProcess({
      API_KEYS: TEST_KEY,
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: "5",
      PORT: String(port),
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    });

  beforeAll(async () => {
    database = await freshDatabase("postgresql");
    replicas.push(...(await Promise.all([startReplica(), startReplica()])));
    await Promise.all(replicas.map((replica) => waitUntilReady(replica)));
    haproxy = await startHaproxy({
      servers: replicas.map((replica, i) => ({ name: `api${i}`, port: Number(new URL(replica.url).port) })),
      checkIntervalMs: CHECK_INTERVAL_MS,
    });
  }, 60_000);

  afterAll(async () => {
    agent.destroy();
    await haproxy?.stop();
    await Promise.all(replicas.map((replica) => replica.stop("SIGKILL")));
    await database?.remove();
  });

  /** One request through HAProxy on the pooled keep-alive connections. */
  function send(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Answer> {
    const json = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          socketPath: haproxy!.socketPath,
          path,
          method,
          agent,
          headers: { ...headers, ...extraHeaders, ...(json ? { "Content-Type": "application/json" } : {}) },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(json);
    });
  }

  /**
   * An open event stream through HAProxy, as the admin app keeps one: when its replica drains, the stream
   * ends with `retry:`, and it reconnects (to whichever replica is up) from its Last-Event-ID. Answers the
   * pets whose `pet.created` it saw, in order, and how many times it connected.
   */
  function followEvents() {
    const seen: number[] = [];
    let lastEventId: string | undefined;
    let connections = 0;
    let stopped = false;
    let current: http.ClientRequest | undefined;
    const connect = () => {
      if (stopped) return;
      connections++;
      const req = http.request(
        {
          socketPath: haproxy!.socketPath,
          path: "/v1/events/stream?types=pet.created",
          agent: false,
          headers: { ...headers, ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
        },
        (res) => {
          let buffer = "";
          let retryMs = 1_000;
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            buffer += chunk;
            let end: number;
            while ((end = buffer.indexOf("\n\n")) !== -1) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const fields = Object.fromEntries(
                block
                  .split("\n")
                  .map((line) => [line.slice(0, line.indexOf(": ")), line.slice(line.indexOf(": ") + 2)]),
              );
              if (fields["retry"]) retryMs = Number(fields["retry"]);
              if (fields["id"]) lastEventId = fields["id"];
              if (fields["data"]) seen.push((JSON.parse(fields["data"]) as { data: { id: number } }).data.id);
            }
          });
          res.on("end", () => setTimeout(connect, res.statusCode === 200 ? retryMs : 200));
          res.on("error", () => setTimeout(connect, 200));
        },
      );
      req.on("error", () => setTimeout(connect, 200));
      req.end();
      current = req;
    };
    connect();
    return {
      seen,
      get connections() {
        return connections;
      },
      stop() {
        stopped = true;
        current?.destroy();
      },
    };
  }

  async function untilState(name: string, state: string) {
    const deadline = Date.now() + 10_000;
    while ((await haproxy!.serverStates())[name] !== state) {
      if (Date.now() > deadline)
        throw new Error(`HAProxy never saw ${name} ${state}:\n${haproxy!.output().slice(-3_000)}`);
      await sleep(50);
    }
  }

  it("SIGTERM each replica in turn under keep-alive load, a successor on its port: 0 errors, no create lost or doubled, an open stream resumed", async () => {
    await untilState("api0", "UP");
    await untilState("api1", "UP");
    const stream = followEvents();

    const failures: string[] = [];
    const answeredAt: number[] = [];
    const created: Array<{ id: number; name: string }> = [];
    let running = true;
    const client = async (clientNo: number) => {
      for (let n = 0; running; n++) {
        const started = Date.now();
        let operation = "list";
        try {
          let answer: Answer;
          const kind = n % 3;
          const known = created[(clientNo * 7 + n) % Math.max(1, created.length)];
          if (kind === 1 && known) {
            operation = `read ${known.id}`;
            answer = await send("GET", `/v1/pets/${known.id}`);
          } else if (kind === 2) {
            const name = `rolling ${clientNo}-${n}`;
            operation = `create ${name}`;
            answer = await send("POST", "/v1/pets", { name, categoryId: 3 }, { "Idempotency-Key": randomUUID() });
            if (answer.status === 201) created.push({ id: Pet.parse(JSON.parse(answer.body)).id, name });
          } else {
            answer = await send("GET", "/v1/pets?limit=20");
          }
          if (answer.status >= 300) failures.push(`${operation}: ${answer.status} ${answer.body.slice(0, 200)}`);
          else answeredAt.push(Date.now());
        } catch (error) {
          failures.push(`${operation} (sent ${Date.now() - started} ms before): ${String(error)}`);
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
    await sleep(1_000);

    const windows: Array<{ replica: number; answered: number; drainedFor: number }> = [];
    for (const [i, old] of replicas.entries()) {
      const port = Number(new URL(old.url).port);
      const signalledAt = Date.now();
      old.child.kill("SIGTERM");
      expect(await old.exited).toEqual({ code: 0, signal: null });
      const exitedAt = Date.now();
      windows.push({
        replica: i,
        answered: answeredAt.filter((at) => at >= signalledAt && at <= exitedAt).length,
        drainedFor: exitedAt - signalledAt,
      });
      const successor = await startReplica(port);
      replicas[i] = successor;
      await waitUntilReady(successor);
      await untilState(`api${i}`, "UP");
      await sleep(300);
    }
    running = false;
    await Promise.all(clients);

    // On failure: HAProxy's state changes and the requests it logged as failed (a 5xx, or termination flags other than ----).
    const haproxyErrors = haproxy!
      .output()
      .split("\n")
      .filter((line) => {
        if (line.includes("Server api/")) return true;
        const logged = /(?:-?\d+\/){4}-?\d+ (\d{3}) \d+ \S+ \S+ (\S{4}) /.exec(line);
        return logged !== null && (Number(logged[1]) >= 500 || logged[2] !== "----");
      })
      .slice(0, 30)
      .join("\n");
    expect(failures, haproxyErrors).toEqual([]);
    for (const window of windows) {
      expect(window.drainedFor).toBeGreaterThanOrEqual(DRAIN_MS);
      expect(window.answered, "requests kept flowing through the SIGTERM window").toBeGreaterThan(0);
    }
    expect(created.length).toBeGreaterThan(20);

    // Every acknowledged create is stored, once.
    const stored = await listAllPets(replicas[0]!, headers);
    const storedNames = stored.map((pet) => pet.name);
    expect(new Set(storedNames).size).toBe(storedNames.length);
    const byId = new Map(stored.map((pet) => [pet.id, pet.name]));
    for (const { id, name } of created) expect(byId.get(id)).toBe(name);
    expect(stored).toHaveLength(created.length);

    // The open stream was ended by each drain it was on and resumed from its Last-Event-ID: every create, once.
    await expect.poll(() => stream.seen.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(created.length);
    stream.stop();
    expect(new Set(stream.seen).size).toBe(stream.seen.length);
    expect([...stream.seen].sort((a, b) => a - b)).toEqual(created.map(({ id }) => id).sort((a, b) => a - b));
    expect(stream.connections).toBeGreaterThan(1);
    console.log(
      `rolling restart behind HAProxy (retries 0): ${answeredAt.length} requests from ${CLIENTS} keep-alive clients, 0 errors; ` +
        windows
          .map((w) => `replica ${w.replica}: ${w.answered} answered in its ${w.drainedFor} ms SIGTERM window`)
          .join(", ") +
        `; ${created.length} keyed creates stored once each; an open stream saw each once over ${stream.connections} connections`,
    );
  }, 60_000);
});
