import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { Pet } from "@petstore/contract";
import Sqlite from "better-sqlite3";
import pg from "pg";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteFilePath, type DatabaseProvider } from "../base/database-url.js";
import { expectError } from "../test/expect-error.js";
import {
  bearer,
  configuredKeyIdOn,
  createTestApp,
  SECOND_TEST_KEY,
  TEST_KEY,
  TEST_PROVIDERS,
  type TestApp,
} from "../test/test-app.js";
import { fingerprintOf, idempotencyLockId } from "./idempotent-create.js";

/** The idempotency scope of TEST_KEY in a test app: its caller (`configured-<fingerprint>`), never its digest. */
const testKeyScope = (t: TestApp) => configuredKeyIdOn(t.database);

describe("fingerprintOf", () => {
  it("is the same for the same pet whatever the key order, and differs for another pet", () => {
    expect(fingerprintOf({ name: "Rex", categoryId: 1, status: "sold" })).toBe(
      fingerprintOf({ status: "sold", categoryId: 1, name: "Rex" }),
    );
    expect(fingerprintOf({ name: "Rex", categoryId: 1 })).toBe(
      fingerprintOf({ name: "Rex", categoryId: 1, status: undefined }),
    );
    expect(fingerprintOf({ name: "Rex", categoryId: 1 })).not.toBe(fingerprintOf({ name: "Rex", categoryId: 2 }));
    expect(fingerprintOf({ name: "Rex", categoryId: 1 })).not.toBe(
      fingerprintOf({ name: "Rex", categoryId: 1, status: "sold" }),
    );
  });
});

describe("idempotencyLockId", () => {
  it("is a stable signed 64-bit number per scope and key", () => {
    const id = idempotencyLockId("scope", "key");
    expect(idempotencyLockId("scope", "key")).toBe(id);
    expect(idempotencyLockId("scope", "other")).not.toBe(id);
    expect(idempotencyLockId("other", "key")).not.toBe(id);
    expect(id >= -(2n ** 63n) && id < 2n ** 63n).toBe(true);
  });
});

/** Rows in the IdempotencyRecord table, read past the API. */
async function storedRecords(t: TestApp, provider: DatabaseProvider): Promise<number> {
  const query = `SELECT COUNT(*) AS "count" FROM "IdempotencyRecord"`;
  if (provider === "sqlite") {
    const db = new Sqlite(sqliteFilePath(t.config.databaseUrl), { readonly: true });
    try {
      return Number((db.prepare(query).get() as { count: number }).count);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: t.config.databaseUrl });
  await client.connect();
  try {
    return Number((await client.query<{ count: string }>(query)).rows[0]!.count);
  } finally {
    await client.end();
  }
}

describe.each(TEST_PROVIDERS)("Idempotency-Key on createPet, %s", (provider) => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });
  const start = async (env: Record<string, string> = {}) => {
    t = await createTestApp(env, provider);
  };
  const createPet = (body: object, key?: string, apiKey = TEST_KEY) => {
    const call = request(t.app).post("/v1/pets").set("Authorization", bearer(apiKey));
    return (key === undefined ? call : call.set("Idempotency-Key", key)).send(body);
  };
  const storedPets = async () =>
    Pet.array().parse((await request(t.app).get("/v1/pets?limit=100").set("Authorization", bearer())).body);

  it("without the header nothing changes: each create is a new pet, nothing recorded", async () => {
    await start();
    const first = await createPet({ name: "Rex", categoryId: 1 }).expect(201);
    const second = await createPet({ name: "Rex", categoryId: 1 }).expect(201);
    expect(second.body.id).not.toBe(first.body.id);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(second.headers["idempotent-replayed"]).toBeUndefined();
    expect(await storedRecords(t, provider)).toBe(0);
  });

  it("the same key with the same body replays the first 201: same pet, same Location, Idempotent-Replayed", async () => {
    await start();
    const first = await createPet({ name: "Rex", categoryId: 3, status: "available" }, "order-1").expect(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(first.headers["location"]).toBe(`/v1/pets/${first.body.id}`);
    // Compared after validation: trimmed name, unknown fields dropped, any key order.
    for (const body of [
      { name: "Rex", categoryId: 3, status: "available" },
      { status: "available", name: "  Rex ", categoryId: 3, owner: "someone", id: 999 },
    ]) {
      const replay = await createPet(body, "order-1").expect(201);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers["location"]).toBe(first.headers["location"]);
      expect(replay.headers["idempotent-replayed"]).toBe("true");
    }
    expect(await storedPets()).toEqual([first.body]);
  });

  it("the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, storing nothing", async () => {
    await start();
    const first = await createPet({ name: "Rex", categoryId: 3 }, "order-1").expect(201);
    for (const body of [
      { name: "Rex", categoryId: 4 },
      { name: "Rex", categoryId: 3, status: "sold" },
      { name: "Max", categoryId: 3 },
    ]) {
      const error = expectError(await createPet(body, "order-1"), 422, "IDEMPOTENCY_KEY_REUSED");
      expect(error.message).toContain("Idempotency-Key");
    }
    expect(await storedPets()).toEqual([first.body]);
  });

  it("keys are scoped to the API key: the same key string under two API keys makes two pets", async () => {
    await start();
    const mine = await createPet({ name: "Rex", categoryId: 1 }, "shared-key", TEST_KEY).expect(201);
    const theirs = await createPet({ name: "Rex", categoryId: 1 }, "shared-key", SECOND_TEST_KEY).expect(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
    // And another body under the other API key is not a reuse of mine.
    await createPet({ name: "Max", categoryId: 2 }, "shared-key-2", SECOND_TEST_KEY).expect(201);
    await createPet({ name: "Kit", categoryId: 2 }, "shared-key-2", TEST_KEY).expect(201);
    expect(await storedPets()).toHaveLength(4);
  });

  it("a 4xx answer is not remembered: after a 400 the key creates with a valid body", async () => {
    await start();
    expectError(await createPet({ name: "", categoryId: 1 }, "retry-me"), 400, "VALIDATION_ERROR");
    const created = await createPet({ name: "Rex", categoryId: 1 }, "retry-me").expect(201);
    expect(created.headers["idempotent-replayed"]).toBeUndefined();
    expectError(await createPet({ name: "Max", categoryId: 1 }, "retry-me"), 422, "IDEMPOTENCY_KEY_REUSED");
  });

  it.each([
    ["empty", ""],
    ["over 255 characters", "k".repeat(256)],
    ["not ASCII", "clé"],
    ["a control character", "tab\there"],
  ])("400 for a key %s, naming header.idempotency-key, storing nothing", async (_case, key) => {
    await start();
    const error = expectError(await createPet({ name: "Rex", categoryId: 1 }, key), 400, "VALIDATION_ERROR");
    expect(error.message).toContain("Idempotency-Key");
    expect(new Set(error.issues?.map((issue) => issue.field))).toEqual(new Set(["header.idempotency-key"]));
    expect(await storedPets()).toEqual([]);
  });

  it("accepts a key of 255 printable characters, spaces inside", async () => {
    await start();
    const key = `a b${"~".repeat(252)}`;
    const first = await createPet({ name: "Rex", categoryId: 1 }, key).expect(201);
    expect((await createPet({ name: "Rex", categoryId: 1 }, key).expect(201)).body).toEqual(first.body);
  });

  it("concurrent creates with one key store one pet; every answer is that pet (201) or 409", async () => {
    await start();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => createPet({ name: "Rex", categoryId: 1 }, "burst")),
    );
    const created = responses.filter((response) => response.status === 201);
    expect(responses.every((response) => response.status === 201 || response.status === 409)).toBe(true);
    const pets = await storedPets();
    expect(pets).toHaveLength(1);
    for (const response of created) expect(response.body).toEqual(pets[0]);
    expect(created.filter((response) => response.headers["idempotent-replayed"] === undefined)).toHaveLength(1);
    // SQLite runs each keyed create whole before the next starts: never in flight (docs/decisions/007).
    if (provider === "sqlite") expect(created).toHaveLength(20);
  });

  it("past IDEMPOTENCY_TTL_HOURS a key is free again, and expired records are swept", async () => {
    await start({ IDEMPOTENCY_TTL_HOURS: "0.0002" }); // 720 ms
    const first = await createPet({ name: "Rex", categoryId: 1 }, "short-lived").expect(201);
    expect(await storedRecords(t, provider)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 850));
    // Another body is no reuse, the same body no replay: the key makes a new pet.
    const second = await createPet({ name: "Max", categoryId: 2 }, "short-lived").expect(201);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.headers["idempotent-replayed"]).toBe(undefined);
    await createPet({ name: "Kit", categoryId: 2 }, "another").expect(201);
    await new Promise((resolve) => setTimeout(resolve, 850));
    // This keyed create finds the others expired and sweeps them (in the background). Its own record
    // stays unless the sweep ran past its TTL too, which a loaded CI host once made it do (0 left): at
    // most one left proves the two expired ones went.
    await createPet({ name: "Tom", categoryId: 2 }, "third").expect(201);
    await expect.poll(() => storedRecords(t, provider)).toBeLessThanOrEqual(1);
    expect(await storedPets()).toHaveLength(4);
  });

  if (provider === "postgresql") {
    it("409 IDEMPOTENCY_KEY_IN_USE with Retry-After: 1 while another create holds the key; then it creates", async () => {
      await start();
      const holder = new pg.Client({ connectionString: t.config.databaseUrl });
      await holder.connect();
      try {
        // What a create of this key on another replica holds until it commits.
        await holder.query("SELECT pg_advisory_lock($1::bigint)", [
          idempotencyLockId(await testKeyScope(t), "busy").toString(),
        ]);
        const response = await createPet({ name: "Rex", categoryId: 1 }, "busy");
        const error = expectError(response, 409, "IDEMPOTENCY_KEY_IN_USE");
        expect(response.headers["retry-after"]).toBe("1");
        expect(error.message).toContain("Idempotency-Key");
        // Other keys, and creates without a key, are not held up.
        await createPet({ name: "Max", categoryId: 1 }, "free").expect(201);
        await createPet({ name: "Kit", categoryId: 1 }).expect(201);
        await holder.query("SELECT pg_advisory_unlock_all()");
        const created = await createPet({ name: "Rex", categoryId: 1 }, "busy").expect(201);
        expect(created.headers["idempotent-replayed"]).toBeUndefined();
      } finally {
        await holder.end();
      }
      expect(await storedPets()).toHaveLength(3);
    });
  }

  if (provider === "sqlite") {
    it("a create of the key by another process on the file is waited for, then replayed", async () => {
      await start();
      // Another writer (a second process on the file; here a thread with its
      // own connection) holds the write lock while it creates the pet and its
      // record, and commits 300 ms later.
      const createdAt = new Date().toISOString().replace("Z", "+00:00");
      const location = "/v1/pets/1";
      const pet = { id: 1, name: "Rex", categoryId: 1 };
      const worker = new Worker(
        `const { parentPort, workerData: w } = require("node:worker_threads");
         const db = new (require(w.sqlitePath))(w.file);
         db.exec("BEGIN IMMEDIATE");
         db.prepare('INSERT INTO "Pet" ("id", "name", "categoryId", "createdAt") VALUES (1, ?, 1, ?)').run(w.pet.name, w.createdAt);
         db.prepare('INSERT INTO "IdempotencyRecord" ("scope", "key", "fingerprint", "status", "body", "location", "createdAt") VALUES (?, ?, ?, 201, ?, ?, ?)')
           .run(w.scope, "elsewhere", w.fingerprint, JSON.stringify(w.pet), w.location, w.createdAt);
         parentPort.postMessage("locked");
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
         db.exec("COMMIT");
         db.close();`,
        {
          eval: true,
          workerData: {
            sqlitePath: createRequire(import.meta.url).resolve("better-sqlite3"),
            file: sqliteFilePath(t.config.databaseUrl),
            scope: await testKeyScope(t),
            fingerprint: fingerprintOf({ name: "Rex", categoryId: 1 }),
            pet,
            location,
            createdAt,
          },
        },
      );
      await new Promise((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
      });
      const replay = await createPet({ name: "Rex", categoryId: 1 }, "elsewhere").expect(201);
      expect(replay.body).toEqual(pet);
      expect(replay.headers["location"]).toBe(location);
      expect(replay.headers["idempotent-replayed"]).toBe("true");
      await worker.terminate();
      expect(await storedPets()).toEqual([pet]);
    });
  }
});
