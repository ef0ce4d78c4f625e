/**
 * Crash safety: the built API takes creates from several concurrent clients,
 * is killed with SIGKILL at a random moment, and is restarted on the same
 * database. Every pet whose create was answered 201 must be there with the
 * fields it was answered with, and nothing may be there that no client sent.
 * Seeded (CRASH_SEED) so a failing schedule can be replayed.
 */
import { Pet, type NewPet } from "@petstore/contract";
import Sqlite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../database.js";
import { sqliteFilePath, type DatabaseProvider } from "../../base/database-url.js";
import { listAllPets, startApiProcess, waitUntilReady, type ApiProcess } from "../api-process.js";
import { freshDatabase, TEST_KEY, TEST_PROVIDERS, type TestDatabase } from "../test-app.js";

const SEED = Number(process.env["CRASH_SEED"] ?? 4242);
const ROUNDS: Record<DatabaseProvider, number> = { sqlite: 5, postgresql: 2 };
const CLIENTS = 6;
const headers = { Authorization: `Bearer ${TEST_KEY}`, "Content-Type": "application/json" };

/** mulberry32: a small seeded PRNG, so the kill moments replay. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const started: ApiProcess[] = [];
const databases: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(started.map((api) => api.stop("SIGKILL")));
  await Promise.all(databases.map((database) => database.remove()));
});

async function start(url: string): Promise<ApiProcess> {
  const api = await startApiProcess({ API_KEYS: TEST_KEY, DATABASE_URL: url, DATABASE_POOL_SIZE: "4" });
  started.push(api);
  await waitUntilReady(api);
  return api;
}

/**
 * Runs CLIENTS concurrent loops of `createOne` against `api`, and SIGKILLs it
 * `killAfterMs` after the first acknowledged create (at once if creates fail:
 * then the test does). A create the kill cuts off ends its loop quietly: it is
 * stored whole or not at all, which the caller checks after a restart.
 */
async function killUnderCreates(
  api: ApiProcess,
  killAfterMs: number,
  acknowledgedCount: () => number,
  createOne: (client: number, index: number) => Promise<void>,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  let stopped = false;
  const client = async (c: number) => {
    for (let i = 0; !stopped; i++) {
      try {
        await createOne(c, i);
      } catch (error) {
        if (stopped) return;
        throw error;
      }
    }
  };
  let failure: unknown;
  const load = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c))).catch((error: unknown) => {
    failure ??= error;
  });
  const before = acknowledgedCount();
  while (acknowledgedCount() === before && failure === undefined)
    await new Promise((resolve) => setTimeout(resolve, 5));
  if (failure === undefined) await new Promise((resolve) => setTimeout(resolve, killAfterMs));
  stopped = true;
  const exit = await api.stop("SIGKILL");
  await load;
  if (failure !== undefined) throw new Error(`creates failed before the kill: ${String(failure)}\n${api.output()}`);
  return exit;
}

describe.each(TEST_PROVIDERS)(
  "crash safety on %s: SIGKILL under concurrent creates loses no acknowledged pet",
  (provider) => {
    it(
      `${ROUNDS[provider]} rounds of kill and restart (seed ${SEED})`,
      async () => {
        const next = random(SEED + (provider === "sqlite" ? 0 : 1));
        const database = await freshDatabase(provider);
        databases.push(database);
        /** Every body sent, by its unique name; and the pets answered 201. */
        const sent = new Map<string, NewPet>();
        const acknowledged = new Map<number, Pet>();
        let api = await start(database.url);

        for (let round = 1; round <= ROUNDS[provider]; round++) {
          const killAfterMs = 50 + Math.floor(next() * 700);
          const exit = await killUnderCreates(
            api,
            killAfterMs,
            () => acknowledged.size,
            async (c, i) => {
              const body: NewPet = {
                name: `crash r${round} c${c} #${i}`,
                categoryId: round * 1_000_000 + c * 10_000 + i + 1,
                ...(i % 3 === 0 ? {} : { status: (["available", "pending", "sold"] as const)[i % 3] }),
              };
              sent.set(body.name, body);
              const response = await fetch(`${api.url}/v1/pets`, {
                method: "POST",
                headers,
                body: JSON.stringify(body),
              });
              if (response.status !== 201)
                throw new Error(`create answered ${response.status}: ${await response.text()}`);
              const pet = Pet.parse(await response.json());
              expect(pet).toEqual({ id: pet.id, ...body });
              acknowledged.set(pet.id, pet);
            },
          );
          expect(exit.signal).toBe("SIGKILL");

          api = await start(database.url);
          const stored = await listAllPets(api, headers);
          const byId = new Map(stored.map((pet) => [pet.id, pet]));
          for (const pet of acknowledged.values())
            expect(byId.get(pet.id), `pet ${pet.id} was acknowledged`).toEqual(pet);
          // Anything else stored is a create that was in flight at the kill, stored whole.
          for (const pet of stored) {
            const body = sent.get(pet.name);
            expect(body, `stored pet ${pet.id} was never sent`).toBeDefined();
            expect(pet).toEqual({ id: pet.id, ...body });
          }
          console.log(
            `crash ${provider} round ${round}/${ROUNDS[provider]}: killed with ${acknowledged.size} pets acknowledged, ` +
              `${stored.length} stored after restart, all ${acknowledged.size} verified`,
          );
          // A restarted store must take creates again.
          for (const pet of stored) acknowledged.set(pet.id, pet);
        }
        await api.stop();
      },
      provider === "sqlite" ? 90_000 : 150_000,
    );
  },
);

describe.each(TEST_PROVIDERS)(
  "crash safety on %s: after SIGKILL under keyed creates, every key still names one pet",
  (provider) => {
    const KEYED_ROUNDS = 2;
    it(
      `${KEYED_ROUNDS} rounds of kill and restart (seed ${SEED})`,
      async () => {
        const next = random(SEED + (provider === "sqlite" ? 2 : 3));
        const database = await freshDatabase(provider);
        databases.push(database);
        /** Every body sent, by its Idempotency-Key (its name is the key); and the pets answered 201. */
        const sent = new Map<string, NewPet>();
        const acknowledged = new Map<string, Pet>();
        let api = await start(database.url);
        /** A retrying client: honours 409's Retry-After (a create cut off by the kill may still hold the key briefly). */
        const createWithKey = async (key: string, body: NewPet) => {
          for (let attempt = 1; ; attempt++) {
            const response = await fetch(`${api.url}/v1/pets`, {
              method: "POST",
              headers: { ...headers, "Idempotency-Key": key },
              body: JSON.stringify(body),
            });
            if (response.status !== 409 || attempt === 10) return response;
            await new Promise((resolve) => setTimeout(resolve, 1_000));
          }
        };

        for (let round = 1; round <= KEYED_ROUNDS; round++) {
          const exit = await killUnderCreates(
            api,
            50 + Math.floor(next() * 500),
            () => acknowledged.size,
            async (c, i) => {
              const key = `keyed r${round} c${c} #${i}`;
              const body: NewPet = { name: key, categoryId: round * 1_000_000 + c * 10_000 + i + 1 };
              sent.set(key, body);
              const response = await createWithKey(key, body);
              if (response.status !== 201)
                throw new Error(`create answered ${response.status}: ${await response.text()}`);
              acknowledged.set(key, Pet.parse(await response.json()));
            },
          );
          expect(exit.signal).toBe("SIGKILL");

          api = await start(database.url);
          // Every acknowledged key replays its pet.
          for (const [key, pet] of acknowledged) {
            const replay = await createWithKey(key, sent.get(key)!);
            expect(replay.status, `key ${key}`).toBe(201);
            expect(replay.headers.get("idempotent-replayed"), `key ${key}`).toBe("true");
            expect(await replay.json()).toEqual(pet);
          }
          // A retry of a key cut off by the kill creates its pet or replays it: either way, one pet per key.
          for (const [key, body] of sent) {
            if (acknowledged.has(key)) continue;
            const retry = await createWithKey(key, body);
            expect(retry.status, `key ${key}`).toBe(201);
            acknowledged.set(key, Pet.parse(await retry.json()));
          }
          const stored = await listAllPets(api, headers);
          expect(stored.map((pet) => pet.name).sort()).toEqual([...sent.keys()].sort());
          for (const pet of stored) expect(acknowledged.get(pet.name)).toEqual(pet);
          console.log(
            `keyed crash ${provider} round ${round}/${KEYED_ROUNDS}: ${sent.size} keys sent, ${stored.length} pets, each key replays its own`,
          );
        }
        await api.stop();
      },
      provider === "sqlite" ? 90_000 : 150_000,
    );
  },
);

describe("SQLite durability settings (docs/decisions/004-sqlite-durability.md)", () => {
  it("the API's own database is in WAL mode once opened", async () => {
    const database = await freshDatabase("sqlite");
    databases.push(database);
    const opened = await openDatabase({ url: database.url, poolSize: 1 });
    expect(await opened.isReady()).toBe(true);
    const raw = new Sqlite(sqliteFilePath(database.url), { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    raw.close();
    await opened.close();
  });
});
