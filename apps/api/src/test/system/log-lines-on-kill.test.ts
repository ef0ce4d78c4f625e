/**
 * Production logs are written in batches (ops/logger.ts, docs/decisions/030-batched-logs-and-one-response-listener.md):
 * a SIGKILL loses at most the batch, fewer than LOG_BATCH_BYTES bytes of request lines, and the lines of
 * requests whose answer was sent but whose end the process had not yet handled;
 * a SIGTERM, and a quiet second, lose none.
 */
import { describe, expect, it } from "vitest";
import { LOG_BATCH_BYTES, LOG_FLUSH_INTERVAL_MS } from "../../ops/logger.js";
import { oneApiProcessPerTest, type ApiProcess } from "../api-process.js";
import { TEST_KEY } from "../test-app.js";

const REQUESTS = 300;
const headers = { Authorization: `Bearer ${TEST_KEY}` };
const api = oneApiProcessPerTest();

/** Sends REQUESTS requests one after another; the request ids the API answered with. */
async function sendRequests(running: ApiProcess): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const response = await fetch(`${running.url}/v1/pets?limit=1`, { headers });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    ids.push(response.headers.get("x-request-id") ?? "");
  }
  return ids;
}

/** The request lines (`request completed`) of `ids` the process wrote, by id. */
function requestLines(running: ApiProcess, ids: string[]): Map<string, string> {
  const wanted = new Set(ids);
  const lines = new Map<string, string>();
  for (const line of running.output().split("\n")) {
    if (!line.startsWith("{")) continue;
    const parsed = JSON.parse(line) as { msg?: string; req?: { id?: string } };
    if (parsed.msg === "request completed" && parsed.req?.id && wanted.has(parsed.req.id))
      lines.set(parsed.req.id, line);
  }
  return lines;
}

describe("request log lines when the process is stopped", () => {
  it(`a SIGKILL loses fewer than ${LOG_BATCH_BYTES} bytes of request lines and the request in flight, the newest ones`, async () => {
    const running = await api.start({ LOG_LEVEL: "info" });
    const ids = await sendRequests(running);
    expect((await running.stop("SIGKILL")).signal).toBe("SIGKILL");
    const written = requestLines(running, ids);
    const lost = ids.filter((id) => !written.has(id));
    // What was lost is the batch: the last lines, never one from the middle.
    expect(lost).toEqual(ids.slice(ids.length - lost.length));
    const shortest = Math.min(...[...written.values()].map((line) => Buffer.byteLength(line) + 1));
    // The batch, and the line of the last request: it is written when its response finishes, so a kill
    // sent as soon as the client has the answer can come before that (one request at a time here).
    const bound = Math.floor((LOG_BATCH_BYTES - 1) / shortest) + 1;
    expect(lost.length, `${lost.length} of ${REQUESTS} lost, a line at least ${shortest} bytes`).toBeLessThanOrEqual(
      bound,
    );
  });

  it("a SIGTERM loses none", async () => {
    const running = await api.start({ LOG_LEVEL: "info" });
    const ids = await sendRequests(running);
    expect((await running.stop("SIGTERM")).code).toBe(0);
    expect(requestLines(running, ids).size).toBe(REQUESTS);
  });

  it(`a SIGKILL after ${LOG_FLUSH_INTERVAL_MS} ms with no request loses none`, async () => {
    const running = await api.start({ LOG_LEVEL: "info" });
    const ids = await sendRequests(running);
    await new Promise((resolve) => setTimeout(resolve, LOG_FLUSH_INTERVAL_MS * 2));
    await running.stop("SIGKILL");
    expect(requestLines(running, ids).size).toBe(REQUESTS);
  });
});
