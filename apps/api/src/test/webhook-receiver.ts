import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export interface ReceivedCall {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hook`. */
  url: string;
  calls: ReceivedCall[];
  /** Resolves once `count` calls came in (rejects after `timeoutMs`). */
  waitForCalls(count: number, timeoutMs?: number): Promise<ReceivedCall[]>;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver on 127.0.0.1, as a customer's endpoint: records each call and answers with
 * what `answer` returns for it (its 0-based number), 200 by default.
 */
export async function startWebhookReceiver(answer: (n: number) => number = () => 200): Promise<WebhookReceiver> {
  const calls: ReceivedCall[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const n = calls.length;
      calls.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      res.statusCode = answer(n);
      res.end(`answer ${n}`);
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    calls,
    async waitForCalls(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (calls.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} webhook calls within ${timeoutMs} ms, got ${calls.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return calls.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `startWebhookReceiver`, closed after each test. Call at the suite's top level. */
export function receiversClosedAfterEach(): typeof startWebhookReceiver {
  const open: WebhookReceiver[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((receiver) => receiver.close()));
  });
  return async (answer) => {
    const receiver = await startWebhookReceiver(answer);
    open.push(receiver);
    return receiver;
  };
}
