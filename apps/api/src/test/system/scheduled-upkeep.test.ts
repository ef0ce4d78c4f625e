import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { insertStaleHeartbeat } from "../upkeep-rows.js";
import { backupsIn } from "../../maintenance/backup-file.js";
import { startApiProcess, waitUntilReady, type ApiProcess } from "../api-process.js";
import { bearer, freshDatabase, TEST_KEY, TEST_PROVIDERS } from "../test-app.js";

const METRICS_TOKEN = "metrics-token-0123456789abcdefghijklmn";

/** One sample's value from the Prometheus text, or undefined. */
const sample = (text: string, series: string) => {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe.each(TEST_PROVIDERS)("the API's own upkeep on %s (built)", (provider) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(env: Record<string, string>): Promise<{ api: ApiProcess; url: string }> {
    const database = await freshDatabase(provider);
    cleanups.push(database.remove);
    // A heartbeat row of a process killed two days ago: the purge at start removes it.
    await insertStaleHeartbeat(database.url);
    const api = await startApiProcess({
      API_KEYS: TEST_KEY,
      DATABASE_URL: database.url,
      METRICS_TOKEN,
      LOG_LEVEL: "info",
      ...env,
    });
    cleanups.push(() => api.stop("SIGKILL"));
    await waitUntilReady(api);
    return { api, url: database.url };
  }
  const metrics = async (api: ApiProcess) =>
    (await fetch(`${api.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();

  it("takes verified backups every BACKUP_EVERY, keeps the newest BACKUP_KEEP, reports them in /metrics; purges at start", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "petstore-scheduled-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const { api } = await start({ BACKUP_DIR: dir, BACKUP_EVERY: "1s", BACKUP_KEEP: "2" });
    const taken = () =>
      (api.output().match(/"msg":"backup \S+: \d+ bytes, \d+ pets, [0-9.]+ s, verified"/g) ?? []).length;
    await expect.poll(taken, { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(3);

    const kept = backupsIn(dir, provider);
    expect(kept.length).toBe(2);
    expect(kept.every((backup) => backup.verified)).toBe(true);
    expect(readdirSync(dir).filter((name) => name.endsWith(".sha256")).length).toBe(2);

    const text = await metrics(api);
    expect(sample(text, "petstore_backup_failures_total")).toBe(0);
    expect(Date.now() / 1000 - sample(text, "petstore_backup_last_success_timestamp_seconds")!).toBeLessThan(15);
    expect(sample(text, "petstore_backup_bytes")).toBeGreaterThan(0);
    expect([statSync(kept[0]!.file).size, statSync(kept[1]!.file).size]).toContain(
      sample(text, "petstore_backup_bytes"),
    );
    expect(sample(text, 'petstore_retention_purged_rows_total{kind="heartbeats"}')).toBe(1);
    expect(api.output()).toMatch(/"msg":"retention: purged heartbeats 1 in [0-9.]+ s \(longest batch [0-9.]+ ms\)"/);
  });

  it("a backup that fails is counted and logged in one line, and the API goes on serving", async () => {
    const blocker = path.join(mkdtempSync(path.join(tmpdir(), "petstore-scheduled-")), "a-file");
    writeFileSync(blocker, "not a folder");
    cleanups.push(async () => rmSync(path.dirname(blocker), { recursive: true, force: true }));
    const { api } = await start({ BACKUP_DIR: path.join(blocker, "backups"), BACKUP_EVERY: "1s" });
    await expect
      .poll(async () => sample(await metrics(api), "petstore_backup_failures_total"), {
        timeout: 60_000,
        interval: 200,
      })
      .toBeGreaterThanOrEqual(2);
    expect(api.output()).toMatch(/"level":50,.*"msg":"backup failed: .*(ENOTDIR|not a directory)/);
    expect(sample(await metrics(api), "petstore_backup_last_success_timestamp_seconds")).toBe(0);
    expect((await fetch(`${api.url}/v1/pets`, { headers: { Authorization: bearer() } })).status).toBe(200);
  });
});
