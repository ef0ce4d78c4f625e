/**
 * The event stream across processes on the built API: two processes on one SQLite file (as the design
 * allows for one host), a stream on B, creates on A. SQLite notifies nobody: B's reader finds A's events
 * by reading the file's log, so they must reach B's stream within 2 s, each once, in order.
 */
import http from "node:http";
import { Pet } from "@petstore/contract";
import { afterEach, describe, expect, it } from "vitest";
import { startApiProcess, waitUntilReady, type ApiProcess } from "../api-process.js";
import { freshDatabase, TEST_KEY, type TestDatabase } from "../test-app.js";

const processes: ApiProcess[] = [];
let database: TestDatabase | undefined;
afterEach(async () => {
  await Promise.all(processes.splice(0).map((api) => api.stop("SIGKILL")));
  await database?.remove();
  database = undefined;
});

async function start(url: string): Promise<ApiProcess> {
  const api = await startApiProcess({ API_KEYS: TEST_KEY, DATABASE_URL: url });
  processes.push(api);
  await waitUntilReady(api);
  return api;
}

/** The ids of the pets whose `pet.created` the stream brought, with when each arrived. */
function follow(url: string) {
  const seen: Array<{ id: number; at: number }> = [];
  const req = http.get(
    `${url}/v1/events/stream?types=pet.created`,
    { agent: false, headers: { Authorization: `Bearer ${TEST_KEY}` } },
    (res) => {
      res.setEncoding("utf8");
      let buffer = "";
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
          buffer = buffer.slice(end + 2);
          if (data) seen.push({ id: (JSON.parse(data) as { data: { id: number } }).data.id, at: Date.now() });
        }
      });
    },
  );
  return { seen, close: () => req.destroy() };
}

async function createPet(url: string, name: string): Promise<{ pet: Pet; at: number }> {
  const response = await fetch(`${url}/v1/pets`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TEST_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  expect(response.status).toBe(201);
  return { pet: Pet.parse(await response.json()), at: Date.now() };
}

describe("event streams across two processes on one SQLite file", () => {
  it("brings the events committed by process A to a stream on process B within 2 s, each once, in order", async () => {
    database = await freshDatabase("sqlite");
    const a = await start(database.url);
    const b = await start(database.url);
    const stream = follow(b.url);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const created: Array<{ pet: Pet; at: number }> = [];
      for (let n = 0; n < 10; n++) created.push(await createPet(a.url, `From A ${n}`));
      await expect.poll(() => stream.seen.length, { timeout: 3_000 }).toBe(10);
      expect(stream.seen.map(({ id }) => id)).toEqual(created.map(({ pet }) => pet.id));
      const lags = stream.seen.map(({ at }, index) => at - created[index]!.at);
      expect(Math.max(...lags)).toBeLessThan(2_000);
      console.log(
        `two processes on one SQLite file: A's creates reached B's stream after ${Math.min(...lags)}-${Math.max(...lags)} ms`,
      );
    } finally {
      stream.close();
    }
  });
});
