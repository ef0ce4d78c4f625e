/**
 * Requests whatever their headers and bytes: body encodings (compressed, corrupt,
 * truncated), charsets, message framing (chunked with Content-Length, bad chunks,
 * lengths that lie), duplicate and conflicting headers, Expect, and sizes at and
 * past the limits. Sent over raw sockets (node:net), so framing can be malformed,
 * to the real server (createHttpServer, as main.ts runs it). Every answer is a 2xx
 * or a 4xx, every 4xx is the Error JSON, and the server stays up.
 */
import { connect, type AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { ErrorBody } from "@petstore/contract";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Server } from "node:http";
import { createHttpServer } from "../../http/http-server.js";
import { createTestApp, TEST_KEY, type TestApp } from "../test-app.js";

const SEED = Number(process.env["FUZZ_SEED"] ?? 20260101);
const RUNS = Number(process.env["FUZZ_RUNS"] ?? 300);
/** Short, so a request whose body never arrives in full is answered (408) within the test. */
const REQUEST_TIMEOUT_MS = 1_500;

let t: TestApp;
let server: Server;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  server = createHttpServer(t.app, { requestTimeoutMs: REQUEST_TIMEOUT_MS });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Interim (1xx) statuses seen before the final one. */
  interim: number[];
}

/** Parses the first final response out of what the server wrote; undefined until it is complete. */
function parseAnswer(raw: Buffer): RawAnswer | undefined {
  let rest = raw;
  const interim: number[] = [];
  for (;;) {
    const end = rest.indexOf("\r\n\r\n");
    if (end === -1) return undefined;
    const [statusLine = "", ...lines] = rest.subarray(0, end).toString("latin1").split("\r\n");
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? Number.NaN);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    rest = rest.subarray(end + 4);
    if (status >= 100 && status < 200) {
      interim.push(status);
      continue;
    }
    const length = Number(headers["content-length"] ?? 0);
    if (headers["transfer-encoding"] === "chunked") {
      const last = rest.indexOf("0\r\n\r\n");
      if (last === -1) return undefined;
      return { status, headers, body: dechunk(rest.subarray(0, last + 5)), interim };
    }
    if (rest.length < length) return undefined;
    return { status, headers, body: rest.subarray(0, length).toString("utf8"), interim };
  }
}

function dechunk(bytes: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at);
    const size = parseInt(bytes.subarray(at, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) return Buffer.concat(parts).toString("utf8");
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** Writes `pieces` (with a pause between them) and resolves with the first final answer, or the bytes so far at close. */
function exchange(pieces: Array<Buffer | string>, timeoutMs = REQUEST_TIMEOUT_MS + 4_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `no complete answer within ${timeoutMs} ms; got ${JSON.stringify(received.toString("latin1").slice(0, 300))}`,
        ),
      );
    }, timeoutMs);
    const finish = (answer: RawAnswer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answer = parseAnswer(received);
      if (answer) finish(answer);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      const answer = parseAnswer(received);
      if (answer) resolve(answer);
      else
        reject(
          new Error(
            `connection closed without a complete answer: ${JSON.stringify(received.toString("latin1").slice(0, 300))}`,
          ),
        );
    });
    socket.on("error", () => {}); // a reset after the answer is fine; the close handler decides
    void (async () => {
      for (const [index, piece] of pieces.entries()) {
        if (index > 0) await new Promise((resolvePause) => setTimeout(resolvePause, 20));
        if (socket.destroyed) return;
        socket.write(piece);
      }
    })();
  });
}

const PET_JSON = JSON.stringify({ name: "Rex", categoryId: 1 });
const AUTH = `Authorization: Bearer ${TEST_KEY}\r\n`;

/** A POST /v1/pets with these extra header lines and body bytes; Content-Length from the body unless a header line sets framing. */
function post(
  headerLines: string[],
  body: Buffer | string = PET_JSON,
  { contentLength = true } = {},
): Array<Buffer | string> {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const lines = [`POST /v1/pets HTTP/1.1`, `Host: 127.0.0.1`, ...headerLines];
  if (contentLength) lines.push(`Content-Length: ${bytes.length}`);
  return [Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n${AUTH}\r\n`), bytes])];
}
const JSON_TYPE = "Content-Type: application/json";

/** The properties every answer has: never a 5xx; a 4xx is the Error JSON with its status (Node's bodiless 1xx aside). */
function expectSound(answer: RawAnswer, where: string): void {
  const described = `${where} -> ${answer.status} ${answer.body.slice(0, 200)}`;
  expect(answer.status, described).toBeGreaterThanOrEqual(200);
  expect(answer.status, described).toBeLessThan(500);
  if (answer.status >= 400) {
    expect(answer.headers["content-type"], described).toMatch(/^application\/json/);
    const error = ErrorBody.parse(JSON.parse(answer.body));
    expect(error.status, described).toBe(answer.status);
    expect(error.message, described).not.toMatch(/at \S+\.(ts|js)|zlib|Z_DATA_ERROR|incorrect header check/i);
  }
}

async function expectStillServing(): Promise<void> {
  const answer = await exchange([`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`]);
  expect(answer.status).toBe(200);
}

const gzipped = gzipSync(PET_JSON);
const CASES: Array<{ name: string; send: Array<Buffer | string>; expect: number[] }> = [
  // Content-Encoding
  { name: "gzip", send: post([JSON_TYPE, "Content-Encoding: gzip"], gzipped), expect: [201] },
  { name: "deflate", send: post([JSON_TYPE, "Content-Encoding: deflate"], deflateSync(PET_JSON)), expect: [201] },
  { name: "GZIP uppercase", send: post([JSON_TYPE, "Content-Encoding: GZIP"], gzipped), expect: [201] },
  { name: "identity", send: post([JSON_TYPE, "Content-Encoding: identity"]), expect: [201] },
  { name: "br", send: post([JSON_TYPE, "Content-Encoding: br"], brotliCompressSync(PET_JSON)), expect: [201, 415] },
  { name: "x-unknown", send: post([JSON_TYPE, "Content-Encoding: x-unknown"]), expect: [415] },
  { name: "gzip, gzip", send: post([JSON_TYPE, "Content-Encoding: gzip, gzip"], gzipSync(gzipped)), expect: [415] },
  { name: "gzip declared, plain body", send: post([JSON_TYPE, "Content-Encoding: gzip"]), expect: [400] },
  { name: "deflate declared, gzip body", send: post([JSON_TYPE, "Content-Encoding: deflate"], gzipped), expect: [400] },
  {
    name: "gzip truncated",
    send: post([JSON_TYPE, "Content-Encoding: gzip"], gzipped.subarray(0, gzipped.length - 9)),
    expect: [400],
  },
  {
    name: "gzip corrupt",
    send: post([JSON_TYPE, "Content-Encoding: gzip"], Buffer.concat([gzipped.subarray(0, 12), Buffer.alloc(20, 0xff)])),
    expect: [400],
  },
  { name: "gzip of not-JSON", send: post([JSON_TYPE, "Content-Encoding: gzip"], gzipSync("not json")), expect: [400] },
  {
    name: "gzip bomb",
    send: post([JSON_TYPE, "Content-Encoding: gzip"], gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x20))),
    expect: [413],
  },
  // Charsets
  { name: "charset utf-8", send: post(["Content-Type: application/json; charset=utf-8"]), expect: [201] },
  { name: "charset UTF-8", send: post(["Content-Type: application/json; charset=UTF-8"]), expect: [201] },
  { name: "charset latin1", send: post(["Content-Type: application/json; charset=latin1"]), expect: [415] },
  {
    name: "charset utf-16",
    send: post(["Content-Type: application/json; charset=utf-16"], Buffer.from(`\ufeff${PET_JSON}`, "utf16le")),
    expect: [201, 415],
  },
  { name: "charset bogus", send: post(["Content-Type: application/json; charset=bogus-1"]), expect: [415] },
  { name: "charset quoted empty", send: post(['Content-Type: application/json; charset=""']), expect: [201, 400, 415] },
  {
    name: "content-type parameters malformed",
    send: post(["Content-Type: application/json; ;=; charset"]),
    expect: [201, 400, 415],
  },
  // Framing
  {
    name: "chunked and Content-Length together",
    send: post(
      [JSON_TYPE, "Transfer-Encoding: chunked"],
      `${PET_JSON.length.toString(16)}\r\n${PET_JSON}\r\n0\r\n\r\n`,
    ),
    expect: [400],
  },
  {
    name: "chunked",
    send: post(
      [JSON_TYPE, "Transfer-Encoding: chunked"],
      `${PET_JSON.length.toString(16)}\r\n${PET_JSON}\r\n0\r\n\r\n`,
      { contentLength: false },
    ),
    expect: [201],
  },
  {
    name: "chunk size not hex",
    send: post([JSON_TYPE, "Transfer-Encoding: chunked"], `zz\r\n${PET_JSON}\r\n0\r\n\r\n`, { contentLength: false }),
    expect: [400],
  },
  {
    name: "chunk size overflows",
    send: post([JSON_TYPE, "Transfer-Encoding: chunked"], `ffffffffffffffffffff\r\nx\r\n0\r\n\r\n`, {
      contentLength: false,
    }),
    expect: [400, 413],
  },
  {
    name: "chunk longer than said",
    send: post([JSON_TYPE, "Transfer-Encoding: chunked"], `2\r\n${PET_JSON}\r\n0\r\n\r\n`, { contentLength: false }),
    expect: [400],
  },
  {
    name: "chunks never end",
    send: post([JSON_TYPE, "Transfer-Encoding: chunked"], `3\r\n{"n`, { contentLength: false }),
    expect: [400, 408],
  },
  {
    name: "Transfer-Encoding gzip, chunked",
    send: post(
      [JSON_TYPE, "Transfer-Encoding: gzip, chunked"],
      `${gzipped.length.toString(16)}\r\n${gzipped.toString("latin1")}\r\n0\r\n\r\n`,
      { contentLength: false },
    ),
    expect: [400, 415],
  },
  {
    name: "Transfer-Encoding unknown",
    send: post([JSON_TYPE, "Transfer-Encoding: x-bogus"], PET_JSON, { contentLength: false }),
    expect: [400, 415],
  },
  {
    name: "two equal Content-Length",
    send: post([JSON_TYPE, `Content-Length: ${PET_JSON.length}`]),
    expect: [400, 201],
  },
  { name: "two conflicting Content-Length", send: post([JSON_TYPE, "Content-Length: 3"]), expect: [400] },
  {
    name: "Content-Length not a number",
    send: post([JSON_TYPE, "Content-Length: ten"], PET_JSON, { contentLength: false }),
    expect: [400],
  },
  {
    name: "Content-Length negative",
    send: post([JSON_TYPE, "Content-Length: -1"], PET_JSON, { contentLength: false }),
    expect: [400],
  },
  {
    name: "Content-Length huge",
    send: post([JSON_TYPE, "Content-Length: 99999999999999999999999"], PET_JSON, { contentLength: false }),
    expect: [400, 413],
  },
  {
    name: "Content-Length over the cap, short body",
    send: post([JSON_TYPE, "Content-Length: 1000000000"], PET_JSON, { contentLength: false }),
    expect: [408, 413],
  },
  {
    name: "Content-Length longer than the body",
    send: post([JSON_TYPE, "Content-Length: 200"], PET_JSON, { contentLength: false }),
    expect: [400, 408],
  },
  // Duplicate and conflicting headers
  { name: "two Content-Type", send: post([JSON_TYPE, "Content-Type: text/plain"]), expect: [201, 400, 415] },
  {
    name: "two Content-Type, non-JSON first",
    send: post(["Content-Type: text/plain", JSON_TYPE]),
    expect: [201, 400, 415],
  },
  {
    name: "two Authorization, a wrong one second",
    send: post([JSON_TYPE, "Authorization: Bearer guess"]),
    expect: [201, 400, 401],
  },
  {
    name: "two Authorization, a wrong one first",
    send: [
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer guess\r\n${AUTH}${JSON_TYPE}\r\nContent-Length: ${PET_JSON.length}\r\n\r\n${PET_JSON}`,
    ],
    expect: [400, 401],
  },
  {
    name: "two Content-Encoding",
    send: post([JSON_TYPE, "Content-Encoding: gzip", "Content-Encoding: identity"], gzipped),
    expect: [201, 400, 415],
  },
  // Expect
  { name: "Expect: 100-continue", send: [...post([JSON_TYPE, "Expect: 100-continue"])], expect: [201] },
  { name: "Expect: bogus", send: post([JSON_TYPE, "Expect: bogus"]), expect: [417] },
  // Sizes
  { name: "header line near the limit", send: post([JSON_TYPE, `X-Padding: ${"a".repeat(15_000)}`]), expect: [201] },
  { name: "header line over the limit", send: post([JSON_TYPE, `X-Padding: ${"a".repeat(20_000)}`]), expect: [431] },
  {
    name: "very long URL",
    send: [`GET /v1/pets?${"a=1&".repeat(5_000)} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`],
    expect: [431],
  },
  {
    name: "long URL under the limit",
    send: [`GET /v1/pets?${"a".repeat(8_000)}=1 HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`],
    expect: [200],
  },
  {
    name: "many headers",
    send: post([JSON_TYPE, ...Array.from({ length: 3_000 }, (_, i) => `X-H${i}: 1`)]),
    expect: [201, 431],
  },
  // Not HTTP
  { name: "HTTP/2 preface", send: ["PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"], expect: [400] },
  {
    name: "bare LF line endings",
    send: [
      `POST /v1/pets HTTP/1.1\nHost: x\n${AUTH.replace("\r", "")}${JSON_TYPE}\nContent-Length: ${PET_JSON.length}\n\n${PET_JSON}`,
    ],
    expect: [201, 400],
  },
  { name: "NUL in a header", send: post([JSON_TYPE, "X-Bad: a\u0000b"]), expect: [400] },
  { name: "obs-fold header", send: post([JSON_TYPE, "X-Folded: a", " b"]), expect: [201, 400] },
];

describe("raw requests: encodings, charsets, framing, duplicates, Expect, sizes", () => {
  for (const testCase of CASES) {
    it(testCase.name, async () => {
      const answer = await exchange(testCase.send);
      expectSound(answer, testCase.name);
      expect(testCase.expect, `${testCase.name} -> ${answer.status} ${answer.body.slice(0, 200)}`).toContain(
        answer.status,
      );
      if (testCase.name.startsWith("Expect: 100")) expect(answer.interim).toEqual([100]);
    });
  }

  it("the server is still up after all of them", async () => {
    await expectStillServing();
  });
});

// ---------------------------------------------------------------- property: combinations of the above

const encodings = fc.constantFrom(
  "gzip",
  "deflate",
  "br",
  "identity",
  "x-unknown",
  "gzip, gzip",
  "GZIP",
  "Deflate",
  "",
  "gzip,identity",
);
// Weighted so that about a third of the requests are sound and should create a pet.
const charsets = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(undefined, "utf-8", "UTF-8") },
  { weight: 1, arbitrary: fc.constantFrom("latin1", "utf-16", "utf-16le", "bogus", "", "utf8", "ascii") },
);
const bodyShapes = fc.oneof(
  { weight: 3, arbitrary: fc.constant("as-declared") },
  { weight: 1, arbitrary: fc.constantFrom("plain", "corrupt", "truncated", "empty", "random") },
);
const framings = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("content-length", "chunked") },
  { weight: 1, arbitrary: fc.constantFrom("both", "short-length", "two-lengths", "none") },
);

function encode(encoding: string, bytes: Buffer): Buffer {
  switch (encoding.toLowerCase()) {
    case "gzip":
    case "gzip, gzip":
    case "gzip,identity":
      return gzipSync(bytes);
    case "deflate":
      return deflateSync(bytes);
    case "br":
      return brotliCompressSync(bytes);
    default:
      return bytes;
  }
}

const rawCombination = fc
  .record({
    encoding: encodings,
    charset: charsets,
    shape: bodyShapes,
    framing: framings,
    random: fc.uint8Array({ maxLength: 64 }),
    cut: fc.nat(),
    expect: fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom("100-continue", "bogus") },
    ),
    duplicateType: fc.boolean(),
  })
  .map(({ encoding, charset, shape, framing, random, cut, expect: expectation, duplicateType }) => {
    const plain = Buffer.from(PET_JSON);
    const declared = encode(encoding, plain);
    const body =
      shape === "as-declared"
        ? declared
        : shape === "plain"
          ? plain
          : shape === "corrupt"
            ? Buffer.concat([declared.subarray(0, 10), Buffer.from(random)])
            : shape === "truncated"
              ? declared.subarray(0, declared.length > 1 ? cut % declared.length : 0)
              : shape === "empty"
                ? Buffer.alloc(0)
                : Buffer.from(random);
    const lines = [`POST /v1/pets HTTP/1.1`, "Host: 127.0.0.1", AUTH.trimEnd()];
    lines.push(`Content-Type: application/json${charset === undefined ? "" : `; charset=${charset}`}`);
    if (duplicateType) lines.push("Content-Type: text/plain");
    if (encoding) lines.push(`Content-Encoding: ${encoding}`);
    if (expectation) lines.push(`Expect: ${expectation}`);
    let payload: Buffer = body;
    if (framing === "content-length" || framing === "both") lines.push(`Content-Length: ${body.length}`);
    if (framing === "short-length") lines.push(`Content-Length: ${body.length + 5}`);
    if (framing === "two-lengths") lines.push(`Content-Length: ${body.length}`, `Content-Length: ${body.length + 1}`);
    if (framing === "chunked" || framing === "both") {
      lines.push("Transfer-Encoding: chunked");
      payload = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n0\r\n\r\n")]);
      if (body.length === 0) payload = Buffer.from("0\r\n\r\n");
    }
    const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`);
    return {
      description: `${lines.slice(3).join(" | ")} body=${shape}(${body.length})`,
      send: [Buffer.concat([head, payload])],
    };
  });

describe("raw requests: random combinations of encoding, charset, body damage, framing, Expect, duplicates", () => {
  it(`never a 5xx, the Error JSON for every 4xx, the server stays up (seed ${SEED}, ${RUNS} runs)`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(rawCombination, { minLength: 4, maxLength: 4 }), async (batch) => {
        const answers = await Promise.all(batch.map((request) => exchange(request.send)));
        answers.forEach((answer, index) => {
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          expectSound(answer, (batch[index] as { description: string }).description);
        });
      }),
      { seed: SEED, numRuns: Math.ceil(RUNS / 4) },
    );
    console.log(
      `raw fuzz statuses: ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}:${n}`)
        .join(" ")}`,
    );
    await expectStillServing();
  }, 120_000);
});
