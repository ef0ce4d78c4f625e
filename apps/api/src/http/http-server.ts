import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorBody } from "@petstore/contract";
import { toErrorBody } from "../base/http-error.js";
import { responseHeaderSets, type HeaderSet } from "./security-headers.js";

export interface HttpServerOptions {
  requestTimeoutMs: number;
  /** Time allowed for a request's headers; at most `requestTimeoutMs` (Node refuses more). Default: that, capped at 60 s. */
  headersTimeoutMs?: number;
  /**
   * How long an idle keep-alive connection stays open (0: none). Behind a load
   * balancer it must exceed the balancer's own idle timeout, or the balancer
   * may send a request on a connection this side is closing.
   */
  keepAliveTimeoutMs?: number;
  /** The JSON responses' header set (security-headers.ts); its development set when not given. */
  jsonHeaders?: HeaderSet;
}

/**
 * The HTTP server around the app: a request must arrive in full within the
 * timeout, and what Node rejects before the app sees it (a timeout, headers
 * too large, bytes that are not HTTP) is answered with the Error JSON too.
 */
export function createHttpServer(
  app: RequestListener,
  {
    requestTimeoutMs,
    headersTimeoutMs = Math.min(requestTimeoutMs, 60_000),
    keepAliveTimeoutMs = 5_000,
    jsonHeaders = responseHeaderSets({ production: false }).api,
  }: HttpServerOptions,
): Server {
  const server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      // How often Node looks for requests over their timeout (default 30 s, which would let a stalled client linger).
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(requestTimeoutMs / 4))),
    },
    app,
  );
  server.on("clientError", answerClientError);
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) =>
    refuseExpectation(req, res, jsonHeaders),
  );
  return server;
}

/**
 * An `Expect` other than 100-continue (which Node answers itself): 417, as Node
 * would, but as the Error JSON. The app never sees the request.
 */
function refuseExpectation(_req: IncomingMessage, res: ServerResponse, jsonHeaders: HeaderSet): void {
  const json = JSON.stringify(
    toErrorBody(417, "VALIDATION_ERROR", "The Expect header is not supported: only Expect: 100-continue is."),
  );
  res.shouldKeepAlive = false;
  res
    .writeHead(417, {
      ...jsonHeaders,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(json),
    })
    .end(json);
}

function clientErrorBody(code: string | undefined): ErrorBody {
  switch (code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return toErrorBody(408, "REQUEST_TIMEOUT", "The request did not arrive in full within the time limit.");
    case "HPE_HEADER_OVERFLOW":
      return toErrorBody(431, "PAYLOAD_TOO_LARGE", "The request headers are too large.");
    default:
      return toErrorBody(400, "VALIDATION_ERROR", "The request is not valid HTTP/1.1.");
  }
}

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node's own handler: answer only when no response has begun on this socket.
  const inProgress = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inProgress?.headersSent) {
    socket.destroy();
    return;
  }
  const body = clientErrorBody(error.code);
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${body.status} ${STATUS_CODES[body.status]}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  );
}
