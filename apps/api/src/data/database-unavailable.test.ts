import { createServer, connect, type Server, type Socket } from "node:net";
import { Pet } from "@petstore/contract";
import Sqlite from "better-sqlite3";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteFilePath } from "../base/database-url.js";
import pg from "pg";
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable, storageFaultOf } from "./database-unavailable.js";
import { expectError } from "../test/expect-error.js";
import { POSTGRES_ADMIN_URL } from "../test/postgres-admin.js";
import {
  bearer,
  createTestApp,
  freshDatabase,
  TEST_PROVIDERS,
  type TestApp,
  type TestDatabase,
} from "../test/test-app.js";

let t: TestApp | undefined;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const newPet = { name: "Rex", categoryId: 1 };
const list = (app: TestApp["app"]) => request(app).get("/v1/pets").set("Authorization", bearer());
const create = (app: TestApp["app"]) => request(app).post("/v1/pets").set("Authorization", bearer()).send(newPet);
const getPet = (app: TestApp["app"], id: number) => request(app).get(`/v1/pets/${id}`).set("Authorization", bearer());

function expectUnavailable(response: request.Response): void {
  const where = `${response.status} ${response.text}`;
  expect(response.status, where).toBe(503);
  expectError(response, 503, "UNAVAILABLE");
  expect(response.headers["retry-after"]).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
  expect(response.text).not.toMatch(/prisma|SELECT|INSERT|127\.0\.0\.1|at \S+\.(ts|js)/i);
}

describe("isDatabaseUnavailable", () => {
  it("a fault of ours is not an outage", () => {
    const ours = [
      new Error("boom"),
      new TypeError("x is undefined"),
      null,
      undefined,
      "text",
      { code: "P2002" },
      { code: "P2010" }, // "raw query failed": only what it wraps can tell
      { code: "SQLITE_ERROR" },
      { code: "SQLITE_CONSTRAINT_UNIQUE" },
      // EIO and failing devices end here as well as a full disk: a fault to look at, not to wait out
      { code: "SQLITE_IOERR_WRITE" },
      { code: "SQLITE_IOERR_FSYNC" },
      { code: "SQLITE_CORRUPT" },
      { kind: "postgres", originalCode: "23505" },
      { code: "54000" }, // program_limit_exceeded: the query's fault, not the server's resources
      { code: "constructor" },
      { kind: "toString" },
    ];
    for (const error of ours) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });

  it("does not loop on an error that is its own cause", () => {
    const error: Error & { cause?: unknown } = new Error("boom");
    error.cause = error;
    expect(storageFaultOf(error)).toBeUndefined();
  });

  it("does not loop on an error that is its own cause (isDatabaseUnavailable)", () => {
    const error: Error & { cause?: unknown } = new Error("boom");
    error.cause = error;
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

/** The adapter's error for a PostgreSQL SQLSTATE it has no kind for, as @prisma/adapter-pg 6.19 builds it. */
const adapterError = (state: string, message: string) => ({
  name: "DriverAdapterError",
  message,
  cause: { originalCode: state, originalMessage: message, kind: "postgres", code: state, severity: "ERROR", message },
});

describe("storageFaultOf: the cause, in the shapes each provider surfaces it", () => {
  it("PostgreSQL class 53 and 57P01-57P03, as pg, the adapter and Prisma carry them", () => {
    const diskFull = adapterError("53100", "could not extend file: No space left on device");
    const cases: Array<[unknown, string]> = [
      // pg's DatabaseError, unwrapped
      [{ name: "error", code: "53100", severity: "ERROR", message: "could not extend file" }, "disk_full"],
      // Prisma around the adapter (one statement: P2010 for $queryRaw; as seen from createPet)
      [{ name: "PrismaClientKnownRequestError", code: "P2010", meta: { driverAdapterError: diskFull } }, "disk_full"],
      // the adapter's error itself (inside an interactive transaction: the keyed create)
      [diskFull, "disk_full"],
      [{ code: "P2010", meta: { driverAdapterError: adapterError("53200", "out of memory") } }, "out_of_memory"],
      [adapterError("53000", "insufficient resources"), "resource_limit"],
      [adapterError("53400", "temporary file size exceeds temp_file_limit"), "resource_limit"],
      // 53300 has a kind of its own; Prisma says P2037 around a model query, P2010 around $queryRaw
      [
        {
          code: "P2037",
          meta: {
            modelName: "Pet",
            driverAdapterError: {
              name: "DriverAdapterError",
              cause: {
                originalCode: "53300",
                kind: "TooManyConnections",
                cause: 'too many connections for role "petstore"',
              },
            },
          },
        },
        "too_many_connections",
      ],
      [
        {
          code: "P2010",
          meta: { driverAdapterError: { cause: { originalCode: "53300", kind: "TooManyConnections" } } },
        },
        "too_many_connections",
      ],
      [adapterError("57P01", "terminating connection due to administrator command"), "shutting_down"],
      [adapterError("57P03", "the database system is starting up"), "shutting_down"],
      [{ code: "08006", severity: "FATAL" }, "unreachable"],
      [{ code: "P1001" }, "unreachable"],
      [{ kind: "DatabaseNotReachable" }, "unreachable"],
      [Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }), "unreachable"],
      [new Error("Connection terminated unexpectedly"), "unreachable"],
    ];
    for (const [error, cause] of cases) {
      expect(storageFaultOf(error)?.cause, JSON.stringify(error)).toBe(cause);
      expect(isDatabaseUnavailable(error)).toBe(true);
    }
  });

  it("SQLite: SQLITE_FULL is a full disk, SQLITE_NOMEM and SQLITE_IOERR_NOMEM no memory, SQLITE_BUSY and SQLITE_LOCKED (extended too) a lock held", () => {
    const cases: Array<[string, string]> = [
      ["SQLITE_FULL", "disk_full"],
      ["SQLITE_NOMEM", "out_of_memory"],
      ["SQLITE_IOERR_NOMEM", "out_of_memory"],
      ["SQLITE_BUSY", "lock_timeout"],
      ["SQLITE_BUSY_SNAPSHOT", "lock_timeout"],
      ["SQLITE_LOCKED_SHAREDCACHE", "lock_timeout"],
    ];
    for (const [code, cause] of cases)
      expect(storageFaultOf(Object.assign(new Error("x"), { code }))?.cause, code).toBe(cause);
  });

  it("SQLite: a real SQLITE_FULL from better-sqlite3 (a database at its max_page_count) is disk_full, and says so for the log", () => {
    const db = new Sqlite(":memory:");
    cleanups.push(() => void db.close());
    db.exec("CREATE TABLE filler (text TEXT); PRAGMA max_page_count = 8;");
    const insert = db.prepare("INSERT INTO filler (text) VALUES (?)");
    let caught: unknown;
    try {
      for (let i = 0; i < 100; i++) insert.run("x".repeat(1000));
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: "SQLITE_FULL", message: "database or disk is full" });
    expect(storageFaultOf(caught)).toEqual({
      cause: "disk_full",
      description: "the database's disk is full",
      lackOfResources: true,
    });
  });

  it.runIf(TEST_PROVIDERS.includes("postgresql"))(
    "PostgreSQL: real errors from the server through pg: 53100 disk_full, 53200 out_of_memory, 53300 too_many_connections",
    async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
      await client.connect();
      cleanups.push(() => client.end());
      for (const [condition, cause] of [
        ["disk_full", "disk_full"],
        ["out_of_memory", "out_of_memory"],
        ["too_many_connections", "too_many_connections"],
      ] as const) {
        const error: unknown = await client
          .query(`DO $$ BEGIN RAISE EXCEPTION 'raised for a test' USING ERRCODE = '${condition}'; END $$`)
          .catch((raised: unknown) => raised);
        expect(error).toBeInstanceOf(pg.DatabaseError);
        expect(storageFaultOf(error)?.cause).toBe(cause);
      }
    },
  );
});

describe("SQLite: a write lock held past busy_timeout", () => {
  it("createPet is 503 UNAVAILABLE with Retry-After while another connection holds the lock; 201 once it is released", async () => {
    t = await createTestApp({ SQLITE_BUSY_TIMEOUT_MS: "100" });
    const id = Pet.parse((await create(t.app).expect(201)).body).id;
    const other = new Sqlite(sqliteFilePath(t.config.databaseUrl));
    cleanups.push(() => void other.close());
    other.exec("BEGIN IMMEDIATE");
    try {
      expectUnavailable(await create(t.app));
      // WAL: readers are not blocked by a writer.
      await list(t.app).expect(200);
      await getPet(t.app, id).expect(200);
    } finally {
      other.exec("ROLLBACK");
    }
    await create(t.app).expect(201);
    expect(t.logs.some((line) => line.includes("database unavailable"))).toBe(true);
  });
});

/** A TCP proxy in front of PostgreSQL that the test can cut (as a crash or a lost network would) and restore. */
class CuttableProxy {
  private server: Server;
  private sockets = new Set<Socket>();
  /** While true, bytes from the app are dropped: a query is sent into a dead network. */
  private stalled = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = this.newServer();
  }

  private newServer(): Server {
    return createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.on("data", (bytes: Buffer) => void (this.stalled || upstream.write(bytes)));
      upstream.pipe(client);
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.port, "127.0.0.1", resolve));
    const address = this.server.address();
    this.port = typeof address === "object" && address ? address.port : 0;
  }

  /** From now on, what the app sends is lost (until cut). */
  stall(): void {
    this.stalled = true;
  }

  /** Stops accepting and drops every open connection: new ones are refused, running ones are lost. */
  async cut(): Promise<void> {
    this.stalled = false;
    const closed = new Promise((resolve) => this.server.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
    this.server = this.newServer();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (this.server.listening) await new Promise((resolve) => this.server.close(resolve));
  }
}

describe.runIf(TEST_PROVIDERS.includes("postgresql"))("PostgreSQL: connection refused or lost", () => {
  it("listPets, createPet and getPet are 503 UNAVAILABLE with Retry-After while it is cut; 200s again within seconds once it is back", async () => {
    const database: TestDatabase = await freshDatabase("postgresql");
    cleanups.push(() => database.remove());
    const direct = new URL(database.url);
    const proxy = new CuttableProxy(direct.hostname, Number(direct.port || 5432));
    await proxy.listen();
    cleanups.push(() => proxy.close());
    const proxied = new URL(database.url);
    proxied.hostname = "127.0.0.1";
    proxied.port = String(proxy.port);
    // The app's own database is the proxied PostgreSQL one (createTestApp's fresh SQLite file goes unused).
    t = await createTestApp({ DATABASE_URL: proxied.toString(), DATABASE_POOL_SIZE: "2" });
    expect(t.database.provider).toBe("postgresql");
    const app = t.app;
    const id = Pet.parse((await create(app).expect(201)).body).id;

    // Lost under a running query: the network goes quiet, then the connection drops.
    proxy.stall();
    const inFlight = list(app).then((response) => response);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await proxy.cut();
    expectUnavailable(await inFlight);

    const started = performance.now();
    // Twice each: the first may meet a pooled connection that was just lost, the second a refused new one.
    for (let round = 0; round < 2; round++) {
      expectUnavailable(await list(app));
      expectUnavailable(await create(app));
      expectUnavailable(await getPet(app, id));
    }
    expect(performance.now() - started, "an outage must be answered at once, not after a hang").toBeLessThan(15_000);
    expectError(await request(app).get("/readyz"), 503, "UNAVAILABLE");

    await proxy.listen();
    await expect.poll(async () => (await list(app)).status, { timeout: 10_000, interval: 200 }).toBe(200);
    const again = Pet.parse((await create(app).expect(201)).body);
    expect((await getPet(app, again.id).expect(200)).body).toEqual(again);
    expect((await list(app).expect(200)).body.map((pet: Pet) => pet.id)).toEqual([id, again.id]);
  }, 60_000);
});
