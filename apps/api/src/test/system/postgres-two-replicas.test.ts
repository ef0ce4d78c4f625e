import { Pet } from "@petstore/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAllPets, startApiProcess, waitUntilReady, type ApiProcess } from "../api-process.js";
import { createDatabase, databaseUrl, dropDatabase } from "../postgres-admin.js";
import { freshDatabase, TEST_PROVIDERS, type TestDatabase } from "../test-app.js";

const KEY = "replica-test-key-0123456789abcdefghij"; // production wants >= 32 characters
const headers = { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" };

// PostgreSQL only: SQLite is one process's embedded file. When no server can be
// had outside CI, global setup says so in one line; in CI it fails instead.
describe.runIf(TEST_PROVIDERS.includes("postgresql"))("two API replicas on one PostgreSQL database", () => {
  let database: TestDatabase;
  let replicas: ApiProcess[] = [];

  beforeAll(async () => {
    database = await freshDatabase("postgresql");
    replicas = await Promise.all(
      [0, 1].map(() => startApiProcess({ API_KEYS: KEY, DATABASE_URL: database.url, DATABASE_POOL_SIZE: "5" })),
    );
    await Promise.all(replicas.map((replica) => waitUntilReady(replica)));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await database?.remove();
  });

  it("500 concurrent creates through both: ids unique, nothing lost, every pet readable through either", async () => {
    const created: Pet[] = [];
    const creates = Array.from({ length: 500 }, (_, i) => ({ i, replica: replicas[i % 2]! }));
    // 50 in flight at a time, alternating replicas.
    for (let start = 0; start < creates.length; start += 50) {
      const batch = await Promise.all(
        creates.slice(start, start + 50).map(async ({ i, replica }) => {
          const response = await fetch(`${replica.url}/v1/pets`, {
            method: "POST",
            headers,
            body: JSON.stringify({ name: `replica pet ${i}`, categoryId: (i % 9) + 1, status: "available" }),
          });
          expect(response.status).toBe(201);
          return Pet.parse(await response.json());
        }),
      );
      created.push(...batch);
    }
    expect(new Set(created.map((pet) => pet.id)).size).toBe(500);

    const byId = (a: Pet, b: Pet) => a.id - b.id;
    const expected = [...created].sort(byId);
    for (const replica of replicas) expect(await listAllPets(replica, headers)).toEqual(expected);

    // Each pet read back through the replica that did not create it.
    for (let start = 0; start < created.length; start += 50) {
      await Promise.all(
        created.slice(start, start + 50).map(async (pet, offset) => {
          const other = replicas[(start + offset + 1) % 2]!;
          const response = await fetch(`${other.url}/v1/pets/${pet.id}`, { headers });
          expect(response.status).toBe(200);
          expect(await response.json()).toEqual(pet);
        }),
      );
    }
  }, 180_000);

  it("30 concurrent creates with one Idempotency-Key through both replicas: one pet, every answer it (201) or 409", async () => {
    const body = JSON.stringify({ name: "keyed replica pet", categoryId: 42 });
    const send = (replica: ApiProcess) =>
      fetch(`${replica.url}/v1/pets`, {
        method: "POST",
        headers: { ...headers, "Idempotency-Key": "replicated-key" },
        body,
      });
    const answers = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const response = await send(replicas[i % 2]!);
        return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
      }),
    );
    const stored = (await listAllPets(replicas[0]!, headers)).filter((pet) => pet.name === "keyed replica pet");
    expect(stored).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 409) {
        expect(answer.body).toMatchObject({ code: "IDEMPOTENCY_KEY_IN_USE", status: 409 });
        expect(answer.headers.get("retry-after")).toBe("1");
      } else {
        expect(answer.status).toBe(201);
        expect(answer.body).toEqual(stored[0]);
        expect(answer.headers.get("location")).toBe(`/v1/pets/${stored[0]!.id}`);
      }
    }
    const firsts = answers.filter(
      (answer) => answer.status === 201 && answer.headers.get("idempotent-replayed") === null,
    );
    expect(firsts).toHaveLength(1);
    // Once it has committed, either replica replays it.
    for (const replica of replicas) {
      const replay = await send(replica);
      expect(replay.status).toBe(201);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(await replay.json()).toEqual(stored[0]);
    }
  }, 60_000);

  it("both replicas stop cleanly on SIGTERM", async () => {
    const results = await Promise.all(replicas.map((replica) => replica.stop("SIGTERM")));
    for (const result of results) expect(result).toEqual({ code: 0, signal: null });
  });
});

describe.runIf(TEST_PROVIDERS.includes("postgresql"))("PostgreSQL start-up", () => {
  it("waits and retries while the database is not there yet, then serves", async () => {
    const name = `petstore_test_late_${process.pid}_${Date.now()}`;
    const api = await startApiProcess({ API_KEYS: KEY, DATABASE_URL: databaseUrl(name), LOG_LEVEL: "info" });
    try {
      // Its first attempt's line: within 45 s even when the host is busy with the other suites (20 s was missed once).
      await expect.poll(() => api.output(), { timeout: 45_000 }).toContain("database not ready (attempt 1)");
      await createDatabase(name);
      await waitUntilReady(api, 60_000);
      const response = await fetch(`${api.url}/v1/pets`, { headers });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([]);
    } finally {
      await api.stop();
      await dropDatabase(name);
    }
  }, 90_000);

  it("gives up after DATABASE_STARTUP_TIMEOUT_MS with one clear line and exit code 1", async () => {
    const api = await startApiProcess({
      API_KEYS: KEY,
      DATABASE_URL: "postgresql://postgres@127.0.0.1:1/petstore",
      DATABASE_STARTUP_TIMEOUT_MS: "2000",
    });
    expect(await api.exited).toEqual({ code: 1, signal: null });
    expect(api.output()).toMatch(/cannot start: database unavailable after \d+ attempt/);
  }, 60_000);
});
