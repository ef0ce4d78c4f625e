import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureLoadGenerator, keySliceSums, runLoad, sliceRate } from "./load.js";
import type { LoadJob } from "./scenarios.js";

describe("keySliceSums", () => {
  const slice = (count: number, cleanFromMs: number) => ({ count, cleanFromMs });

  it("leaves out the first slice, the last and an odd one over, and each slice's first `connections` requests", () => {
    const slices = [slice(500, 10), slice(100, 20), slice(60, 40), slice(132, 25), slice(90, 50), slice(7, -1), slice(3, -1)];
    // Slices 1-4 count: 1 and 3 (odd) are the key's unless the reference has the first slice.
    expect(keySliceSums(slices, { connections: 32, referenceFirst: true, sliceMs: 100 })).toEqual({
      key: { requests: 100 - 32 + (132 - 32), ms: 100 - 20 + (100 - 25) },
      reference: { requests: 60 - 32 + (90 - 32), ms: 100 - 40 + (100 - 50) },
    });
    expect(keySliceSums(slices, { connections: 32, referenceFirst: false, sliceMs: 100 })).toEqual({
      key: { requests: 60 - 32 + (90 - 32), ms: 100 - 40 + (100 - 50) },
      reference: { requests: 100 - 32 + (132 - 32), ms: 100 - 20 + (100 - 25) },
    });
  });

  it("counts nothing of a slice that never sent more than `connections` requests", () => {
    const sums = keySliceSums([slice(50, 5), slice(20, -1), slice(80, 30), slice(10, 1)], { connections: 32, referenceFirst: true, sliceMs: 100 });
    expect(sums.key).toEqual({ requests: 0, ms: 0 });
    expect(sliceRate(sums.key)).toBeNaN();
    expect(sliceRate(sums.reference)).toBeCloseTo(((80 - 32) * 1000) / 70);
  });
});

/**
 * The key-sliced run end to end: real wrk against a node:http server in this
 * process that spends `costUs` of CPU on each request, by the key it carries.
 * A run can only tell two keys apart if the server's work for them differs.
 */
describe("a key-sliced wrk run", () => {
  const KEY = "key-under-test";
  const REFERENCE = "reference-key";
  let server: Server;
  let url: string;
  let wrk: string;
  let work: string;
  const costUs = new Map<string, number>();
  const seen = new Map<string, number>();

  beforeAll(async () => {
    // Installs wrk (Debian's package) when missing, as the bench's own set-up does.
    wrk = ensureLoadGenerator(() => {});
    work = mkdtempSync(path.join(tmpdir(), "petstore-load-test-"));
    server = createServer((req, res) => {
      const key = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      seen.set(key, (seen.get(key) ?? 0) + 1);
      const until = performance.now() + (costUs.get(key) ?? 0) / 1000;
      while (performance.now() < until); // the server's work for this key
      res.end("[]");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  const run = (referenceFirst: boolean) => {
    seen.clear();
    const job: LoadJob = { url, apiKey: KEY, referenceKey: REFERENCE, referenceFirst, scenario: "listPets", connections: 8, durationSeconds: 2, maxId: 1 };
    return runLoad(wrk, job, work, process.pid);
  };

  it("sends both keys and finds them equal when the server's work for them is", async () => {
    costUs.set(KEY, 300).set(REFERENCE, 300);
    const result = await run(true);
    expect(result.non2xx + result.errors + result.timeouts).toBe(0);
    expect(seen.get(KEY)).toBeGreaterThan(500);
    expect(seen.get(REFERENCE)).toBeGreaterThan(500);
    const { key, reference } = result.keySlices!;
    expect(sliceRate(key) / sliceRate(reference)).toBeGreaterThan(0.85);
    expect(sliceRate(key) / sliceRate(reference)).toBeLessThan(1.15);
    expect(result.requestsPerSecond).toBe(sliceRate(key));
  });

  it("finds the key the server works twice as long for at about half the rate, whichever key has the first slice", async () => {
    costUs.set(KEY, 600).set(REFERENCE, 300);
    for (const referenceFirst of [true, false]) {
      const { key, reference } = (await run(referenceFirst)).keySlices!;
      expect(sliceRate(key) / sliceRate(reference)).toBeGreaterThan(0.4);
      expect(sliceRate(key) / sliceRate(reference)).toBeLessThan(0.65);
    }
  });
});
