import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiProcess, waitUntilReady, type ApiProcess } from "../api-process.js";
import { freshDatabase, TEST_PROVIDERS, type TestDatabase } from "../test-app.js";

const KEY = "replica-test-key-0123456789abcdefghij"; // a configured key: scope admin
const admin = { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" };

// Two built API processes on one PostgreSQL: an issued key revoked through one is refused by the other within 2 s.
describe.runIf(TEST_PROVIDERS.includes("postgresql"))(
  "issued keys across two API replicas on one PostgreSQL database",
  () => {
    let database: TestDatabase;
    let replicas: ApiProcess[] = [];

    beforeAll(async () => {
      database = await freshDatabase("postgresql");
      replicas = await Promise.all(
        [0, 1].map(() => startApiProcess({ API_KEYS: KEY, DATABASE_URL: database.url, DATABASE_POOL_SIZE: "3" })),
      );
      await Promise.all(replicas.map((replica) => waitUntilReady(replica)));
    }, 120_000);

    afterAll(async () => {
      await Promise.all(replicas.map((replica) => replica.stop()));
      await database?.remove();
    });

    const statusOn = async (replica: ApiProcess, secret: string) =>
      (await fetch(`${replica.url}/v1/pets`, { headers: { Authorization: `Bearer ${secret}` } })).status;

    /** Milliseconds from `since` until `replica` answers `expected` for the key, asked every 10 ms. */
    async function lagUntil(replica: ApiProcess, secret: string, expected: number, since: number): Promise<number> {
      for (;;) {
        const status = await statusOn(replica, secret);
        const lag = Date.now() - since;
        if (status === expected) return lag;
        if (lag > 5_000) throw new Error(`still ${status} after ${lag} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    it("a key created on one works on the other within 2 s; revoked on one, refused there at once and on the other within 2 s", async () => {
      const lags: number[] = [];
      for (let round = 0; round < 5; round++) {
        const [here, there] = round % 2 === 0 ? [replicas[0]!, replicas[1]!] : [replicas[1]!, replicas[0]!];
        const created = await fetch(`${here.url}/admin/v1/keys`, {
          method: "POST",
          headers: admin,
          body: JSON.stringify({ name: `round ${round}`, scope: "read" }),
        });
        expect(created.status).toBe(201);
        const { key, secret } = (await created.json()) as { key: { id: number }; secret: string };
        expect(await statusOn(here, secret)).toBe(200);
        expect(await lagUntil(there, secret, 200, Date.now())).toBeLessThan(2_000);

        const revoked = await fetch(`${here.url}/admin/v1/keys/${key.id}/revoke`, { method: "POST", headers: admin });
        const revokedAt = Date.now();
        expect(revoked.status).toBe(200);
        expect(await statusOn(here, secret)).toBe(401);
        const lag = await lagUntil(there, secret, 401, revokedAt);
        expect(lag).toBeLessThan(2_000);
        lags.push(lag);
      }
      console.log(
        `revocation lag on the other replica (built processes, PostgreSQL), ms: ${lags.join(", ")}; max ${Math.max(...lags)}`,
      );
    }, 60_000);
  },
);
