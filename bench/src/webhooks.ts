/**
 * Webhooks in the bench. A local receiver (node:http, answers 204, counts
 * each event once by its `webhook-id`); the endpoints registered on the API
 * through `POST /admin/v1/webhooks` with the configured key (scope admin) and
 * deleted after (their deliveries with them); and the delivery throughput: one
 * endpoint, the sender running, N pets created, deliveries per second from the
 * first create to the last receipt.
 *
 * The API's settings for both (servers.ts adds them): http:// and loopback
 * receivers allowed; for the createPet comparison the sender paused (its first
 * look WEBHOOK_POLL_MS after start, never in a run), so the outbox rows are
 * all the request path pays; for the throughput it looks every DELIVERY_POLL_MS.
 *
 * Fair sending (measureFairSending): on that same running sender, a fast receiver's worst lag
 * alone, and beside a receiver that answers 200 after 9.5 s (issue 46: it was 23 s).
 */
import { createServer, type Server } from "node:http";
import autocannon from "autocannon";
import { deliveriesPerSecond } from "./statistics.js";

/** Endpoints registered for api-webhooks's runs. */
export const WEBHOOK_ENDPOINTS = 3;
/** The sender's look interval for the throughput: small, so the poll is not what limits it. */
export const DELIVERY_POLL_MS = 10;
/**
 * A pause longer than any run: the sender's first look comes this long after start. Under 2^31 ms:
 * a longer setTimeout fires at once (Node's TimeoutOverflowWarning), which would not pause it at all.
 */
const PAUSED_POLL_MS = 2_000_000_000;

/** The API's environment for webhooks to a local receiver, the sender paused or looking every DELIVERY_POLL_MS. */
export const webhookEnv = (sender: "paused" | "running"): Record<string, string> => ({
  WEBHOOK_ALLOW_HTTP: "true",
  WEBHOOK_ALLOW_PRIVATE: "true",
  WEBHOOK_POLL_MS: String(sender === "paused" ? PAUSED_POLL_MS : DELIVERY_POLL_MS),
});

export interface Receiver {
  url: string;
  /** Requests received, and distinct `webhook-id`s among them. */
  received: () => number;
  distinct: () => number;
  /** Date.now() of the last receipt (NaN before any). */
  lastAt: () => number;
  close: () => Promise<void>;
}

/** A receiver on a free loopback port: every POST answered 204 once its body is read. */
export function startReceiver(): Promise<Receiver> {
  let received = 0;
  let lastAt = NaN;
  const ids = new Set<string>();
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      lastAt = Date.now();
      const id = req.headers["webhook-id"];
      if (typeof id === "string") ids.add(id);
      res.writeHead(204).end();
    });
  });
  return listenOnLoopback(server).then(({ url, close }) => ({
    url,
    received: () => received,
    distinct: () => ids.size,
    lastAt: () => lastAt,
    close,
  }));
}

/** Listens on a free loopback port: the hooks URL there, and a close that does not wait for kept-alive connections. */
function listenOnLoopback(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}/hooks`,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            // The sender's keep-alive connections would hold close() open.
            server.closeAllConnections();
          }),
      });
    });
  });
}

const admin = (apiUrl: string, apiKey: string, method: string, path: string, body?: unknown) =>
  fetch(`${apiUrl}/admin/v1/webhooks${path}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** Registers `count` endpoints at `receiverUrl`, subscribed to pet.created; their ids. Throws on any answer but 201. */
export async function registerEndpoints(
  apiUrl: string,
  apiKey: string,
  receiverUrl: string,
  count: number,
): Promise<number[]> {
  const ids: number[] = [];
  for (let n = 1; n <= count; n++) {
    const response = await admin(apiUrl, apiKey, "POST", "", {
      url: `${receiverUrl}/${n}`,
      description: `bench receiver ${n}`,
      eventTypes: ["pet.created"],
    });
    const text = await response.text();
    if (response.status !== 201)
      throw new Error(`POST /admin/v1/webhooks answered ${response.status}: ${text.slice(0, 300)}`);
    ids.push((JSON.parse(text) as { webhook: { id: number } }).webhook.id);
  }
  return ids;
}

/** Deletes the endpoints (and so their deliveries). Throws on any answer but 204. */
export async function deleteEndpoints(apiUrl: string, apiKey: string, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    const response = await admin(apiUrl, apiKey, "DELETE", `/${id}`);
    if (response.status !== 204)
      throw new Error(
        `DELETE /admin/v1/webhooks/${id} answered ${response.status}: ${(await response.text()).slice(0, 300)}`,
      );
  }
}

/** The delivery throughput of one database (provider), as the report prints it. */
export interface DeliveryThroughput {
  provider: string;
  pets: number;
  /** Requests the receiver got, and distinct events among them (each must equal pets). */
  received: number;
  distinct: number;
  /** From the first create: when the last create was answered, and when the last delivery arrived. */
  createSeconds: number;
  lastReceiptSeconds: number;
  deliveriesPerSecond: number;
  pollMs: number;
}

/** How long to wait for the last delivery after the last create before giving up. */
const DRAIN_TIMEOUT_MS = 120_000;

/**
 * One endpoint at a fresh receiver on an API whose sender is running (`apiUrl`, started with
 * webhookEnv("running")): `pets` pets created (autocannon, 10 connections, in this process), then waits
 * until the receiver has every event or DRAIN_TIMEOUT_MS passes. The endpoint is deleted after.
 */
export async function measureDeliveries(
  provider: string,
  apiUrl: string,
  apiKey: string,
  pets: number,
): Promise<DeliveryThroughput> {
  const receiver = await startReceiver();
  try {
    const ids = await registerEndpoints(apiUrl, apiKey, receiver.url, 1);
    try {
      const startedAt = Date.now();
      const created = await autocannon({
        url: apiUrl,
        connections: 10,
        amount: pets,
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        requests: [
          {
            method: "POST",
            path: "/v1/pets",
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({ name: `delivery ${Math.random()}`, categoryId: 1, status: "available" }),
            }),
          },
        ],
      });
      const createdAt = Date.now();
      if (created.non2xx > 0 || created.errors > 0 || created.requests.total !== pets) {
        throw new Error(
          `creating ${pets} pets: ${created.requests.total} sent, ${created.non2xx} non-2xx, ${created.errors} errors`,
        );
      }
      const deadline = createdAt + DRAIN_TIMEOUT_MS;
      while (receiver.distinct() < pets && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      // A moment more: a duplicate sent after the last distinct one would show in `received`.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return {
        provider,
        pets,
        received: receiver.received(),
        distinct: receiver.distinct(),
        createSeconds: (createdAt - startedAt) / 1000,
        lastReceiptSeconds: (receiver.lastAt() - startedAt) / 1000,
        deliveriesPerSecond: deliveriesPerSecond(receiver.distinct(), startedAt, receiver.lastAt()),
        pollMs: DELIVERY_POLL_MS,
      };
    } finally {
      await deleteEndpoints(apiUrl, apiKey, ids);
    }
  } finally {
    await receiver.close();
  }
}

/** Pets created for the fair-sending figure: the 48. */
export const FAIR_SENDING_PETS = 48;
/** How long the slow receiver takes to answer 200: the 9.5 s, within WEBHOOK_TIMEOUT_MS (10 s). */
export const SLOW_ANSWER_MS = 9_500;

/** Fair sending, as the report prints it: a fast receiver's lag alone, and beside a receiver that answers after SLOW_ANSWER_MS. */
export interface FairSending {
  provider: string;
  pets: number;
  slowAnswerMs: number;
  /** The fast receiver's worst lag, in s: its receipt of a pet's event after the create was answered. */
  aloneLagSeconds: number;
  besideSlowLagSeconds: number;
  /** Events the fast receiver got beside the slow one (must equal pets). */
  fastReceived: number;
  /** The most sends the slow receiver held at once (at most WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT per API process). */
  slowMostOpen: number;
}

interface TimedReceiver {
  url: string;
  /** Date.now() of each pet's event's first receipt, by pet id. */
  receivedAt: Map<number, number>;
  mostOpen: () => number;
  close: () => Promise<void>;
}

/** A receiver on a free loopback port that answers 200 `answerMs` after each request came in, counting the requests it holds at once. */
function startTimedReceiver(answerMs: number): Promise<TimedReceiver> {
  const receivedAt = new Map<number, number>();
  const timers = new Set<NodeJS.Timeout>();
  let open = 0;
  let mostOpen = 0;
  const server = createServer((req, res) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    res.on("close", () => open--);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const id = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: { id: number } }).data.id;
      if (!receivedAt.has(id)) receivedAt.set(id, Date.now());
      const timer = setTimeout(() => {
        timers.delete(timer);
        res.writeHead(200).end();
      }, answerMs);
      timers.add(timer);
    });
  });
  return listenOnLoopback(server).then(({ url, close }) => ({
    url,
    receivedAt,
    mostOpen: () => mostOpen,
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      return close();
    },
  }));
}

/**
 * Creates `pets` pets one after another, then waits until `fast` has every one's event (or DRAIN_TIMEOUT_MS
 * passes): the worst lag, in s, of a receipt after its create's answer (Infinity when one never came).
 */
async function worstLagSeconds(apiUrl: string, apiKey: string, pets: number, fast: TimedReceiver): Promise<number> {
  const answeredAt = new Map<number, number>();
  for (let n = 0; n < pets; n++) {
    const response = await fetch(`${apiUrl}/v1/pets`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: `fair ${n} ${Math.random()}`, categoryId: 1, status: "available" }),
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`POST /v1/pets answered ${response.status}: ${text.slice(0, 300)}`);
    answeredAt.set((JSON.parse(text) as { id: number }).id, Date.now());
  }
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  const every = () => [...answeredAt.keys()].every((id) => fast.receivedAt.has(id));
  while (!every() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return Math.max(...[...answeredAt].map(([id, at]) => ((fast.receivedAt.get(id) ?? Infinity) - at) / 1000));
}

/**
 * Fair sending on an API whose sender is running (`apiUrl`, webhookEnv("running")): FAIR_SENDING_PETS pets
 * with one fast endpoint (answers 200 at once), then as many with the fast one and a slow one (answers 200
 * after SLOW_ANSWER_MS) beside it. Each endpoint is deleted after; the slow receiver's sends still in
 * flight are cut when it closes.
 */
export async function measureFairSending(provider: string, apiUrl: string, apiKey: string): Promise<FairSending> {
  const pets = FAIR_SENDING_PETS;
  const alone = await startTimedReceiver(0);
  let aloneLagSeconds: number;
  try {
    const ids = await registerEndpoints(apiUrl, apiKey, alone.url, 1);
    try {
      aloneLagSeconds = await worstLagSeconds(apiUrl, apiKey, pets, alone);
    } finally {
      await deleteEndpoints(apiUrl, apiKey, ids);
    }
  } finally {
    await alone.close();
  }
  const slow = await startTimedReceiver(SLOW_ANSWER_MS);
  const fast = await startTimedReceiver(0);
  try {
    // The slow one first: its deliveries are the older at every look, as oldest-due-first sending would favour.
    const ids = [
      ...(await registerEndpoints(apiUrl, apiKey, slow.url, 1)),
      ...(await registerEndpoints(apiUrl, apiKey, fast.url, 1)),
    ];
    try {
      const besideSlowLagSeconds = await worstLagSeconds(apiUrl, apiKey, pets, fast);
      return {
        provider,
        pets,
        slowAnswerMs: SLOW_ANSWER_MS,
        aloneLagSeconds,
        besideSlowLagSeconds,
        fastReceived: fast.receivedAt.size,
        slowMostOpen: slow.mostOpen(),
      };
    } finally {
      await deleteEndpoints(apiUrl, apiKey, ids);
    }
  } finally {
    await Promise.all([slow.close(), fast.close()]);
  }
}
