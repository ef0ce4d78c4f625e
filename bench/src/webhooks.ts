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
 */
import { createServer } from "node:http";
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
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}/hooks`,
        received: () => received,
        distinct: () => ids.size,
        lastAt: () => lastAt,
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
    headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** Registers `count` endpoints at `receiverUrl`, subscribed to pet.created; their ids. Throws on any answer but 201. */
export async function registerEndpoints(apiUrl: string, apiKey: string, receiverUrl: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let n = 1; n <= count; n++) {
    const response = await admin(apiUrl, apiKey, "POST", "", { url: `${receiverUrl}/${n}`, description: `bench receiver ${n}`, eventTypes: ["pet.created"] });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`POST /admin/v1/webhooks answered ${response.status}: ${text.slice(0, 300)}`);
    ids.push((JSON.parse(text) as { webhook: { id: number } }).webhook.id);
  }
  return ids;
}

/** Deletes the endpoints (and so their deliveries). Throws on any answer but 204. */
export async function deleteEndpoints(apiUrl: string, apiKey: string, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    const response = await admin(apiUrl, apiKey, "DELETE", `/${id}`);
    if (response.status !== 204) throw new Error(`DELETE /admin/v1/webhooks/${id} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
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
export async function measureDeliveries(provider: string, apiUrl: string, apiKey: string, pets: number): Promise<DeliveryThroughput> {
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
        requests: [{ method: "POST", path: "/v1/pets", setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: `delivery ${Math.random()}`, categoryId: 1, status: "available" }) }) }],
      });
      const createdAt = Date.now();
      if (created.non2xx > 0 || created.errors > 0 || created.requests.total !== pets) {
        throw new Error(`creating ${pets} pets: ${created.requests.total} sent, ${created.non2xx} non-2xx, ${created.errors} errors`);
      }
      const deadline = createdAt + DRAIN_TIMEOUT_MS;
      while (receiver.distinct() < pets && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
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
