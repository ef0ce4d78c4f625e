/**
 * Webhooks through built API processes: an event committed just before a SIGKILL is still delivered
 * by the restarted process (the outbox is written in the change's transaction), and two replicas on
 * one PostgreSQL database deliver each event once (the sender's lease: FOR UPDATE SKIP LOCKED).
 * Every call is verified with `standardwebhooks`, as a customer would.
 */
import { Pet, WebhookWithSecret } from "@petstore/contract";
import { Webhook as Verifier } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { startApiProcess, waitUntilReady, type ApiProcess } from "../api-process.js";
import { freshDatabase, TEST_KEY, TEST_PROVIDERS, type TestDatabase } from "../test-app.js";
import { receiversClosedAfterEach, type ReceivedCall } from "../webhook-receiver.js";

const headers = { Authorization: `Bearer ${TEST_KEY}`, "Content-Type": "application/json" };
const LOCAL = { WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "1s,1s,2s" };
const startReceiver = receiversClosedAfterEach();

const started: ApiProcess[] = [];
const databases: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(started.map((api) => api.stop("SIGKILL")));
  await Promise.all(databases.map((database) => database.remove()));
});

async function start(url: string, env: Record<string, string> = {}): Promise<ApiProcess> {
  const api = await startApiProcess({
    API_KEYS: TEST_KEY,
    DATABASE_URL: url,
    DATABASE_POOL_SIZE: "4",
    ...LOCAL,
    ...env,
  });
  started.push(api);
  await waitUntilReady(api);
  return api;
}

async function register(api: ApiProcess, url: string): Promise<string> {
  const response = await fetch(`${api.url}/admin/v1/webhooks`, {
    method: "POST",
    headers,
    body: JSON.stringify({ url }),
  });
  expect(response.status).toBe(201);
  return WebhookWithSecret.parse(await response.json()).secret;
}

async function createPet(api: ApiProcess, name: string): Promise<Pet> {
  const response = await fetch(`${api.url}/v1/pets`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  expect(response.status).toBe(201);
  return Pet.parse(await response.json());
}

function verified(secret: string, call: ReceivedCall) {
  const received = Object.fromEntries(Object.entries(call.headers).map(([name, value]) => [name, String(value)]));
  return new Verifier(secret).verify(call.body, received) as { type: string; data: unknown };
}

describe("webhooks through built API processes", () => {
  it("delivers an event committed just before a SIGKILL once the API is back", async () => {
    const database = await freshDatabase("sqlite");
    databases.push(database);
    const receiver = await startReceiver();
    // This process never looks for due deliveries before it dies: the event exists only in the outbox.
    const first = await start(database.url, { WEBHOOK_POLL_MS: "600000" });
    const secret = await register(first, receiver.url);
    const pet = await createPet(first, "Survivor");
    expect((await first.stop("SIGKILL")).signal).toBe("SIGKILL");
    expect(receiver.calls).toHaveLength(0);

    await start(database.url, { WEBHOOK_POLL_MS: "100" });
    const [call] = await receiver.waitForCalls(1);
    expect(verified(secret, call!)).toEqual({ type: "pet.created", timestamp: expect.any(String), data: pet });
  });

  it("two processes on one SQLite file (a rolling restart's overlap) deliver each event once", async () => {
    const database = await freshDatabase("sqlite");
    databases.push(database);
    const receiver = await startReceiver();
    const [a, b] = await Promise.all([
      start(database.url, { WEBHOOK_POLL_MS: "20" }),
      start(database.url, { WEBHOOK_POLL_MS: "20" }),
    ]);
    const secret = await register(a!, receiver.url);
    const pets = await Promise.all(Array.from({ length: 20 }, (_, i) => createPet(i % 2 ? a! : b!, `Pet ${i}`)));
    const calls = await receiver.waitForCalls(pets.length, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.calls).toHaveLength(pets.length);
    expect(new Set(calls.map((call) => call.headers["webhook-id"])).size).toBe(pets.length);
    for (const call of calls) expect(verified(secret, call).type).toBe("pet.created");
  });

  it.skipIf(!TEST_PROVIDERS.includes("postgresql"))(
    "two PostgreSQL replicas deliver each event once",
    async () => {
      const database = await freshDatabase("postgresql");
      databases.push(database);
      const receiver = await startReceiver();
      const [a, b] = await Promise.all([
        start(database.url, { WEBHOOK_POLL_MS: "20" }),
        start(database.url, { WEBHOOK_POLL_MS: "20" }),
      ]);
      const secret = await register(a!, receiver.url);
      const pets = await Promise.all(Array.from({ length: 30 }, (_, i) => createPet(i % 2 ? a! : b!, `Pet ${i}`)));
      const calls = await receiver.waitForCalls(pets.length, 15_000);
      // Both senders looked many times meanwhile: a second copy would have come by now.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.calls).toHaveLength(pets.length);
      const ids = new Set(calls.map((call) => call.headers["webhook-id"]));
      expect(ids.size).toBe(pets.length);
      const delivered = calls.map((call) => (verified(secret, call).data as Pet).id).sort((x, y) => x - y);
      expect(delivered).toEqual(pets.map((pet) => pet.id).sort((x, y) => x - y));
    },
    60_000,
  );
});
