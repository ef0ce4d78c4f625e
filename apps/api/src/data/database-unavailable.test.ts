import { createServer, connect, type Server, type Socket } from "node:net";
import { Pet } from "@petstore/contract";
import Sqlite from "better-sqlite3";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteFilePath } from "../base/database-url.js";
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "./database-unavailable.js";
import { expectError } from "../test/expect-error.js";
import { bearer, createTestApp, freshDatabase, TEST_PROVIDERS, type TestApp, type TestDatabase } from "../test/test-app.js";

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
    for (const error of [new Error("boom"), new TypeError("x is undefined"), null, undefined, "text", { code: "P2002" }, { code: "SQLITE_ERROR" }]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });

  it("does not loop on an error that is its own cause", () => {
    const error: Error & { cause?: unknown } = new Error("boom");
    error.cause = error;
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
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
