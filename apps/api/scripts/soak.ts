/**
 * Soak: mixed load against the built API (a child process on loopback, on a
 * fresh SQLite file) for SOAK_SECONDS (default 300). Reports requests, errors
 * and the child's RSS after warm-up and at the end. Exits non-zero if any
 * request failed or got an unexpected status, or if RSS grew by 10% or more.
 *
 *   corepack pnpm --filter @petstore/api build
 *   SOAK_SECONDS=300 corepack pnpm --filter @petstore/api soak
 *
 * SOAK_CONCURRENCY (default 16) clients run at once; DATABASE_URL may point at
 * PostgreSQL instead (it must exist; the API migrates it).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ErrorBody, Pet, PET_STATUSES, Pets } from "@petstore/contract";
import { startApiProcess, waitUntilReady } from "../src/test/api-process.js";

const SECONDS = Number(process.env["SOAK_SECONDS"] ?? 300);
const CONCURRENCY = Number(process.env["SOAK_CONCURRENCY"] ?? 16);
// RSS grows while V8 warms up and SQLite fills its page cache; growth is measured from after that.
const WARM_UP_SECONDS = Math.min(60, Math.max(2, Math.round(SECONDS / 5)));
const KEY = "soak-key";
const auth = { Authorization: `Bearer ${KEY}` };

const folder = mkdtempSync(path.join(tmpdir(), "petstore-soak-"));
const databaseUrl = process.env["DATABASE_URL"] ?? `file:${path.join(folder, "soak.db")}`;
const api = await startApiProcess({ API_KEYS: KEY, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" });
await waitUntilReady(api);

function rssMiB(): number {
  const status = readFileSync(`/proc/${api.child.pid}/status`, "utf8");
  const kib = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
  return kib / 1024;
}

const counts = new Map<string, number>();
const failures: string[] = [];
let requests = 0;
const knownIds: number[] = [];
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** One request of the mix, and the status it must get. */
async function one(): Promise<void> {
  const roll = Math.random();
  let label: string;
  let expected: number;
  let response: Response;
  if (roll < 0.4) {
    label = "listPets";
    expected = 200;
    const query = new URLSearchParams({ limit: String(1 + Math.floor(Math.random() * 100)) });
    if (Math.random() < 0.5) query.set("status", pick(PET_STATUSES));
    if (Math.random() < 0.3 && knownIds.length > 0) query.set("after", String(pick(knownIds)));
    response = await fetch(`${api.url}/v1/pets?${query}`, { headers: auth });
  } else if (roll < 0.7) {
    label = "createPet";
    expected = 201;
    response = await fetch(`${api.url}/v1/pets`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({
        name: `soak ${requests}`,
        categoryId: 1 + Math.floor(Math.random() * 50),
        status: pick(PET_STATUSES),
      }),
    });
  } else if (roll < 0.9) {
    label = "getPet";
    const id =
      knownIds.length > 0 && Math.random() < 0.9 ? pick(knownIds) : 9_000_000_000 + Math.floor(Math.random() * 1000);
    expected = knownIds.includes(id) ? 200 : 404;
    response = await fetch(`${api.url}/v1/pets/${id}`, { headers: auth });
  } else if (roll < 0.95) {
    label = "createPet invalid";
    expected = 400;
    response = await fetch(`${api.url}/v1/pets`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "", categoryId: -1 }),
    });
  } else {
    label = "listPets without key";
    expected = 401;
    response = await fetch(`${api.url}/v1/pets`);
  }
  const text = await response.text();
  requests++;
  counts.set(`${label} ${response.status}`, (counts.get(`${label} ${response.status}`) ?? 0) + 1);
  if (response.status !== expected)
    throw new Error(`${label}: expected ${expected}, got ${response.status} ${text.slice(0, 200)}`);
  const json: unknown = JSON.parse(text);
  if (expected >= 400) ErrorBody.parse(json);
  else if (label === "listPets") Pets.parse(json);
  else {
    const pet = Pet.parse(json);
    if (label === "createPet" && knownIds.length < 50_000) knownIds.push(pet.id);
  }
}

const startedAt = Date.now();
const endsAt = startedAt + SECONDS * 1000;
let rssStart = NaN;
let rssPeak = 0;
const sampler = setInterval(() => {
  const rss = rssMiB();
  rssPeak = Math.max(rssPeak, rss);
  if (Number.isNaN(rssStart) && Date.now() - startedAt >= WARM_UP_SECONDS * 1000) rssStart = rss;
}, 1000);

await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < endsAt) {
      try {
        await one();
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
        if (failures.length > 100) return;
      }
    }
  }),
);
clearInterval(sampler);
const rssEnd = rssMiB();
const exit = await api.stop("SIGTERM");
rmSync(folder, { recursive: true, force: true });

const elapsed = (Date.now() - startedAt) / 1000;
const growth = (rssEnd - rssStart) / rssStart;
console.log(
  `soak: ${SECONDS} s, ${CONCURRENCY} concurrent clients, ${requests} requests (${(requests / elapsed).toFixed(0)}/s)`,
);
for (const [key, n] of [...counts].sort()) console.log(`  ${key}: ${n}`);
console.log(`  errors: ${failures.length}${failures.length ? `\n    ${failures.slice(0, 10).join("\n    ")}` : ""}`);
console.log(
  `  RSS after ${WARM_UP_SECONDS} s warm-up: ${rssStart.toFixed(1)} MiB; at end: ${rssEnd.toFixed(1)} MiB ` +
    `(${(growth * 100).toFixed(1)}%); peak ${rssPeak.toFixed(1)} MiB`,
);
console.log(`  API exit after SIGTERM: code ${exit.code}`);
const ok = failures.length === 0 && growth < 0.1 && exit.code === 0;
console.log(ok ? "soak: PASS" : "soak: FAIL");
process.exit(ok ? 0 : 1);
