/**
 * A write the database cannot make for lack of resources is an outage, not a
 * bug: 503 UNAVAILABLE with Retry-After (never 500), reads go on, writes
 * resume by themselves when the resource returns, one log line names the
 * cause and `petstore_storage_faults_total` counts it. On real parts: an
 * SQLite file on a small tmpfs filled by creates; a PostgreSQL role at its
 * CONNECTION LIMIT (connections held, backends terminated), and the server's
 * own 53100/53200 errors raised by a trigger (the shared server's disk is
 * never filled).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Pet, Pets } from "@petstore/contract";
import Sqlite from "better-sqlite3";
import pg from "pg";
import request from "supertest";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DATABASE_RETRY_AFTER_SECONDS, type StorageFaultCause } from "./database-unavailable.js";
import { expectError } from "../test/expect-error.js";
import { withAdminClient } from "../test/postgres-admin.js";
import { bearer, createTestApp, freshDatabase, TEST_PROVIDERS, type TestApp } from "../test/test-app.js";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";

let t: TestApp | undefined;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type App = TestApp["app"];
const auth = (call: request.Test) => call.set("Authorization", bearer());
const create = (app: App, name: string, idempotencyKey?: string) => {
  const call = auth(request(app).post("/v1/pets")).send({ name, categoryId: 1 });
  return idempotencyKey ? call.set("Idempotency-Key", idempotencyKey) : call;
};
const list = (app: App) => auth(request(app).get("/v1/pets"));
const getPet = (app: App, id: number) => auth(request(app).get(`/v1/pets/${id}`));

function expectUnavailable(response: request.Response): void {
  expect(response.status, `${response.status} ${response.text}`).toBe(503);
  expectError(response, 503, "UNAVAILABLE");
  expect(response.headers["retry-after"]).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
  expect(response.text).not.toMatch(/prisma|SQLITE|INSERT|disk|memory|127\.0\.0\.1|at \S+\.(ts|js)/i);
}

/** Every pet listPets shows, page by page. */
async function listAll(app: App): Promise<Pet[]> {
  const pets: Pet[] = [];
  let next: string | null = "/v1/pets?limit=100";
  while (next) {
    const response: request.Response = await auth(request(app).get(next)).expect(200);
    pets.push(...Pets.parse(response.body));
    next = /^<([^>]+)>; rel="next"$/.exec(String(response.headers["link"] ?? ""))?.[1] ?? null;
  }
  return pets;
}

async function faultsCounted(app: App): Promise<Map<string, number>> {
  const text = (await request(app).get("/metrics").set("Authorization", `Bearer ${METRICS_TOKEN}`).expect(200)).text;
  const counts = new Map<string, number>();
  for (const [, cause, value] of text.matchAll(/^petstore_storage_faults_total\{cause="([a-z_]+)"\} (\d+)$/gm))
    counts.set(cause!, Number(value));
  return counts;
}

/** The app's log lines that name a storage fault with this cause. */
const faultLines = (logs: string[], cause: StorageFaultCause) =>
  logs
    .map((line) => JSON.parse(line) as { level: number; msg: string; cause?: string })
    .filter((line) => line.cause === cause);

/** A tmpfs of `size` on a fresh folder, or why none can be mounted here (not root, no CAP_SYS_ADMIN). */
function mountTmpfs(size: string): { dir: string } | { reason: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "petstore-full-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "pipe" });
    return { dir };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { reason: stderr || (error instanceof Error ? error.message : String(error)) };
  }
}

function unmount(dir: string): void {
  try {
    execFileSync("umount", [dir], { stdio: "pipe" });
  } catch {
    execFileSync("umount", ["-l", dir], { stdio: "pipe" }); // still busy: detach now, freed when the last file closes
  }
  rmSync(dir, { recursive: true, force: true });
}

describe("SQLite: the database's disk fills up", () => {
  it("createPet is 503 with Retry-After (never 500) while the disk is full, reads go on, writes resume once space is freed; every 201 is kept, once", async (context) => {
    const mounted = mountTmpfs("2m");
    if ("reason" in mounted) {
      console.warn(
        `full-disk test skipped: cannot mount a tmpfs here (${mounted.reason}); it needs root or CAP_SYS_ADMIN`,
      );
      context.skip();
      return;
    }
    cleanups.push(() => unmount(mounted.dir));
    const file = path.join(mounted.dir, "petstore.db");
    copyFileSync(inject("sqliteTemplate"), file);
    // Room for the creates to use up, given back later to end the fault.
    const filler = path.join(mounted.dir, "filler");
    writeFileSync(filler, Buffer.alloc(512 * 1024, 1));
    t = await createTestApp({ DATABASE_URL: `file:${file}`, METRICS_TOKEN });
    const app = t.app;

    const acknowledged: Pet[] = [];
    let unavailable = 0;
    for (let i = 0; unavailable === 0; i++) {
      expect(i, "the disk never filled").toBeLessThan(2_000);
      const response = await create(app, `Filler ${i} ${"x".repeat(60)}`);
      expect([201, 503], `${response.status} ${response.text}`).toContain(response.status);
      if (response.status === 201) acknowledged.push(Pet.parse(response.body));
      else {
        expectUnavailable(response);
        unavailable++;
      }
    }
    expect(acknowledged.length, "some creates fit before the disk was full").toBeGreaterThan(5);

    // While it is full: creates (plain and keyed) are 503; reads and readiness answer. The names are as long
    // as the one that did not fit: a shorter row could still fit in the last page's free space.
    for (let round = 0; round < 3; round++) {
      expectUnavailable(await create(app, `Full ${round} ${"x".repeat(62)}`));
      unavailable++;
    }
    expectUnavailable(await create(app, "Retried", "full-disk-retry"));
    unavailable++;
    expect((await list(app).expect(200)).body).toEqual(acknowledged.slice(0, 20));
    expect((await getPet(app, acknowledged[0]!.id).expect(200)).body).toEqual(acknowledged[0]);
    await request(app).get("/readyz").expect(200);

    // Space returns: writes resume in this same process; the keyed retry creates its pet once.
    rmSync(filler);
    const retried = await create(app, "Retried", "full-disk-retry").expect(201);
    expect(retried.headers["idempotent-replayed"]).toBeUndefined();
    const replayed = await create(app, "Retried", "full-disk-retry").expect(201);
    expect(replayed.headers["idempotent-replayed"]).toBe("true");
    expect(replayed.body).toEqual(retried.body);
    acknowledged.push(Pet.parse(retried.body));
    acknowledged.push(Pet.parse((await create(app, "After").expect(201)).body));

    const listed = await listAll(app);
    expect(listed).toEqual(acknowledged);
    expect(listed.filter((pet) => pet.name === "Retried")).toHaveLength(1);

    // One error line per 503, naming the cause; the counter agrees; no 500's "unhandled error".
    const lines = faultLines(t.logs, "disk_full");
    expect(lines).toHaveLength(unavailable);
    for (const line of lines)
      expect(line).toMatchObject({ level: 50, msg: "database unavailable: the database's disk is full" });
    expect(t.logs.some((line) => line.includes("unhandled error"))).toBe(false);
    expect((await faultsCounted(app)).get("disk_full")).toBe(unavailable);

    await t.close();
    t = undefined;
    const check = new Sqlite(file);
    try {
      expect(check.pragma("integrity_check", { simple: true })).toBe("ok");
      // The activity log and the idempotency records took the same path: one event per pet, one record for the key.
      const events = check
        .prepare("SELECT targetId FROM AuditEvent WHERE action = 'pet.created' ORDER BY targetId")
        .pluck()
        .all();
      expect(events.map(Number)).toEqual(acknowledged.map((pet) => pet.id));
      expect(check.prepare("SELECT count(*) FROM IdempotencyRecord WHERE key = 'full-disk-retry'").pluck().get()).toBe(
        1,
      );
    } finally {
      check.close();
    }
  });
});

describe.runIf(TEST_PROVIDERS.includes("postgresql"))(
  "PostgreSQL: out of connections, terminated, out of disk or memory",
  () => {
    /** A client on the test's database as the server's admin. */
    async function adminOn(url: string): Promise<pg.Client> {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
      await client.connect();
      cleanups.push(() => client.end());
      return client;
    }

    it("a role at its CONNECTION LIMIT: 503 with Retry-After (never 500) while other clients hold its connections or its backends are terminated; recovers by itself", async () => {
      const database = await freshDatabase("postgresql");
      cleanups.push(() => database.remove());
      const role = `petstore_test_limited_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
      const password = "limited-role-password";
      await withAdminClient((client) =>
        client.query(`CREATE ROLE "${role}" LOGIN PASSWORD '${password}' CONNECTION LIMIT 2`),
      );
      // Runs after the database is dropped (cleanups run last first): nothing of the role is left then.
      cleanups.unshift(() =>
        withAdminClient((client) => client.query(`DROP ROLE IF EXISTS "${role}"`)).then(() => undefined),
      );
      const admin = await adminOn(database.url);
      await admin.query(
        `GRANT USAGE ON SCHEMA public TO "${role}";
       GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "${role}";
       GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO "${role}"`,
      );
      const asRole = new URL(database.url);
      asRole.username = role;
      asRole.password = password;
      t = await createTestApp({ DATABASE_URL: asRole.toString(), DATABASE_POOL_SIZE: "2", METRICS_TOKEN });
      const app = t.app;
      const acknowledged = [Pet.parse((await create(app, "Before").expect(201)).body)];
      const backendsOfRole = async () =>
        Number(
          (await admin.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE usename = $1", [role]))
            .rows[0]!.n,
        );

      // Terminated under a running query (57P01): the query waits on a lock, then its backend is ended.
      await admin.query(`BEGIN; LOCK TABLE "Pet" IN ACCESS EXCLUSIVE MODE`);
      const inFlight = list(app).then((response) => response);
      await expect
        .poll(
          async () =>
            (
              await admin.query("SELECT 1 FROM pg_stat_activity WHERE usename = $1 AND wait_event_type = 'Lock'", [
                role,
              ])
            ).rowCount,
        )
        .toBe(1);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1", [role]);
      expectUnavailable(await inFlight);
      await admin.query("ROLLBACK");
      await expect.poll(backendsOfRole).toBe(0);

      // Held: other clients take the role's two connections, so the app's pool cannot open one (53300).
      const holders: pg.Client[] = [];
      cleanups.push(() => Promise.all(holders.map((holder) => holder.end())).then(() => undefined));
      for (let i = 0; i < 2; i++) {
        const holder = new pg.Client({ connectionString: asRole.toString() });
        await holder.connect();
        holders.push(holder);
      }
      const started = performance.now();
      expectUnavailable(await create(app, "Refused"));
      expectUnavailable(await list(app));
      expectUnavailable(await getPet(app, acknowledged[0]!.id));
      expect(performance.now() - started, "refused connections are answered at once").toBeLessThan(5_000);
      expectError(await request(app).get("/readyz"), 503, "UNAVAILABLE");

      await Promise.all(holders.splice(0).map((holder) => holder.end()));
      await expect.poll(async () => (await list(app)).status, { timeout: 10_000, interval: 100 }).toBe(200);
      acknowledged.push(Pet.parse((await create(app, "After").expect(201)).body));
      expect(await listAll(app)).toEqual(acknowledged);

      const refused = faultLines(t.logs, "too_many_connections");
      expect(refused.length).toBeGreaterThanOrEqual(3);
      for (const line of refused)
        expect(line).toMatchObject({
          level: 50,
          msg: "database unavailable: the database refused a connection: too many connections",
        });
      expect(t.logs.some((line) => line.includes("unhandled error"))).toBe(false);
      const counted = await faultsCounted(app);
      expect(counted.get("too_many_connections")).toBe(refused.length);
      // The terminated query: 57P01 from the server, or pg's own "Connection terminated" when the socket closed first.
      expect((counted.get("shutting_down") ?? 0) + (counted.get("unreachable") ?? 0)).toBe(1);
    });

    it("the server's disk full (53100) and out of memory (53200) on createPet: 503 with Retry-After, reads go on, a keyed retry creates once when it passes", async () => {
      const database = await freshDatabase("postgresql");
      cleanups.push(() => database.remove());
      const admin = await adminOn(database.url);
      // The server's own error, through pg, the adapter and Prisma as a real one would come: raised by a trigger
      // with the SQLSTATE PostgreSQL gives when it cannot extend a file or allocate memory.
      const failInserts = (condition: "disk_full" | "out_of_memory") =>
        admin.query(
          `CREATE OR REPLACE FUNCTION storage_fault() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '${condition}'; END $$;
         CREATE OR REPLACE TRIGGER storage_fault BEFORE INSERT ON "Pet" FOR EACH ROW EXECUTE FUNCTION storage_fault()`,
        );
      t = await createTestApp({ DATABASE_URL: database.url, METRICS_TOKEN });
      const app = t.app;
      const first = Pet.parse((await create(app, "Before").expect(201)).body);

      for (const [condition, cause] of [
        ["disk_full", "disk_full"],
        ["out_of_memory", "out_of_memory"],
      ] as const) {
        await failInserts(condition);
        expectUnavailable(await create(app, "Refused")); // one statement: Prisma's P2010 around the adapter's error
        expectUnavailable(await create(app, "Retried", "pg-storage-retry")); // a transaction: the adapter's error itself
        await list(app).expect(200);
        await getPet(app, first.id).expect(200);
        expect(faultLines(t.logs, cause)).toHaveLength(2);
      }
      await admin.query(`DROP TRIGGER storage_fault ON "Pet"`);
      const retried = await create(app, "Retried", "pg-storage-retry").expect(201);
      expect(retried.headers["idempotent-replayed"]).toBeUndefined();
      expect((await create(app, "Retried", "pg-storage-retry").expect(201)).body).toEqual(retried.body);
      expect(await listAll(app)).toEqual([first, Pet.parse(retried.body)]);

      expect(faultLines(t.logs, "disk_full")[0]).toMatchObject({
        level: 50,
        msg: "database unavailable: the database's disk is full",
      });
      expect(faultLines(t.logs, "out_of_memory")[0]).toMatchObject({
        level: 50,
        msg: "database unavailable: the database is out of memory",
      });
      expect(t.logs.some((line) => line.includes("unhandled error"))).toBe(false);
      const counted = await faultsCounted(app);
      expect([counted.get("disk_full"), counted.get("out_of_memory")]).toEqual([2, 2]);
      const events = await admin.query<{ n: string }>(
        `SELECT count(*) AS n FROM "AuditEvent" WHERE action = 'pet.created'`,
      );
      expect(Number(events.rows[0]!.n)).toBe(2);
    });
  },
);
