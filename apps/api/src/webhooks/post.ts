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

/** What staff read on an endpoint's page for the network failures an endpoint commonly causes. */
const FAILURE_SENTENCES: Record<string, string> = {
  ECONNREFUSED: "The endpoint refused the connection: nothing is listening at that address and port.",
  ECONNRESET: "The endpoint closed the connection before it answered.",
  EPIPE: "The endpoint closed the connection before it answered.",
  ETIMEDOUT: "The connection to the endpoint timed out.",
  EHOSTUNREACH: "The endpoint's address cannot be reached from here.",
  ENETUNREACH: "The endpoint's address cannot be reached from here.",
  ERR_TLS_CERT_ALTNAME_INVALID: "The endpoint's TLS certificate is not for its host name.",
  CERT_HAS_EXPIRED: "The endpoint's TLS certificate has expired.",
  DEPTH_ZERO_SELF_SIGNED_CERT: "The endpoint's TLS certificate is self-signed, and not trusted.",
  SELF_SIGNED_CERT_IN_CHAIN: "The endpoint's TLS certificate is signed by an authority that is not trusted.",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "The endpoint's TLS certificate could not be verified.",
};

/**
 * A failed request in a sentence: the common causes in words (the delivery log is read by staff on the
 * endpoint's page), anything else as Node names it.
 */
export function requestFailure(error: NodeJS.ErrnoException): string {
  return (error.code && FAILURE_SENTENCES[error.code]) ?? `The request failed: ${error.code ?? error.message}.`;
}

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
    if ((options as { all?: boolean }).all)
      callback(null, [{ address: destination.address, family: destination.family }]);
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
    const timer = setTimeout(
      () => finish({ statusCode: null, error: `No answer within ${timeoutMs} ms.`, answer: "" }),
      timeoutMs,
    );
    const onAbort = () => finish({ statusCode: null, error: "Cut off: the API process was stopping.", answer: "" });
    request.on("error", (error: NodeJS.ErrnoException) =>
      finish({ statusCode: null, error: requestFailure(error), answer: "" }),
    );
    // Stopped before the send began: nothing goes out.
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const done = () =>
        finish({
          statusCode: response.statusCode ?? null,
          error: null,
          answer: Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString("utf8").replaceAll("\u0000", "\ufffd"),
        });
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
