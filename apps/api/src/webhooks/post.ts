import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { ResolvedDestination } from "./destination.js";

/** What came of one POST: a status (any), or an error sentence (network, timeout); the first 1 KiB of the answer. */
export interface PostResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  answer: string;
}

export const ANSWER_BYTES = 1024;

/**
 * POSTs `body` to the checked destination: the connection goes to `destination.address` (no second DNS
 * lookup), TLS still checks the certificate against the URL's host. Redirects are not followed (a 3xx is
 * an answer like any other). Everything, connecting included, must end within `timeoutMs`.
 */
export function post(
  destination: ResolvedDestination,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [{ address: destination.address, family: destination.family }]);
    else callback(null, destination.address, destination.family);
  };
  const transport = destination.url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      request.destroy();
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = transport.request(destination.url, {
      method: "POST",
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      lookup: pinned,
      agent: false,
    });
    const timer = setTimeout(() => finish({ statusCode: null, error: `No answer within ${timeoutMs} ms.`, answer: "" }), timeoutMs);
    const onAbort = () => finish({ statusCode: null, error: "Cut off: the API process was stopping.", answer: "" });
    request.on("error", (error: NodeJS.ErrnoException) =>
      finish({ statusCode: null, error: `The request failed: ${error.code ?? error.message}.`, answer: "" }),
    );
    // Stopped before the send began: nothing goes out.
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const done = () =>
        finish({ statusCode: response.statusCode ?? null, error: null, answer: Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString("utf8").replaceAll("\u0000", "\ufffd") });
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        length += chunk.length;
        if (length >= ANSWER_BYTES) done();
      });
      response.on("end", done);
      response.on("error", done);
    });
    request.end(body);
  });
}
