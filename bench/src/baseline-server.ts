/**
 * The baseline: the physical limit of this stack (Node's http module and the
 * database driver) for the same work the API does on the benchmarked paths.
 * Same bearer check, same queries (limit + 1 rows for the next-page check,
 * status filter, id order), same JSON bodies and the headers that matter (Link,
 * Location, deprecation headers); SQLite through prepared better-sqlite3
 * statements with the API's pragmas, PostgreSQL through a `pg` Pool with the
 * same SQL. Not part of the product: no framework, no security headers, no
 * request ids, no logging, no rate-limit counting.
 *
 * Env: PORT, API_KEYS (comma-separated), DATABASE_URL (a migrated `file:` SQLite
 * file or a `postgres://` URL), DATABASE_POOL_SIZE (PostgreSQL, default 10).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import {
  DEPRECATION,
  errorBody,
  floorSetup,
  listPage,
  parseListQuery,
  parseNewPet,
  parsePetId,
  toPet,
  UNAUTHORIZED,
} from "./floor-shared.js";

const { port, keyIndex, store } = await floorSetup("pg");

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(json),
  });
  res.end(json);
}
const fail = (res: ServerResponse, status: number, code: string, message: string, headers?: Record<string, string>) =>
  send(res, status, errorBody(status, code, message), headers);

async function listPets(url: URL, res: ServerResponse): Promise<void> {
  const query = parseListQuery((name) => url.searchParams.get(name));
  if (!query) return fail(res, 400, "VALIDATION_ERROR", "Invalid request.");
  const { page, link } = await listPage(store, query);
  send(res, 200, page, link === undefined ? {} : { Link: link });
}

async function getPet(idText: string, res: ServerResponse): Promise<void> {
  const id = parsePetId(idText);
  if (id === 0) return fail(res, 400, "VALIDATION_ERROR", "Invalid petId.", DEPRECATION);
  const row = await store.findById(id);
  if (!row) return fail(res, 404, "NOT_FOUND", `No pet has id ${idText}.`, DEPRECATION);
  send(res, 200, toPet(row), DEPRECATION);
}

function createPet(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size <= 16 * 1024) chunks.push(chunk);
  });
  req.on("end", () => {
    if (size > 16 * 1024) return fail(res, 413, "PAYLOAD_TOO_LARGE", "Too large.");
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return fail(res, 400, "VALIDATION_ERROR", "The request body is not valid JSON.");
    }
    const pet = parseNewPet(body);
    if (!pet) return fail(res, 400, "VALIDATION_ERROR", "Invalid request body.");
    store.create(pet).then(
      (row) => send(res, 201, toPet(row), { Location: `/v1/pets/${String(row.id)}` }),
      (error: unknown) => internal(res, error),
    );
  });
}

function internal(res: ServerResponse, error: unknown): void {
  console.error(error);
  if (res.headersSent) res.destroy();
  else fail(res, 500, "INTERNAL", "An unexpected error occurred.");
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname === "/readyz") return send(res, 200, { status: "ok" });
  const isGetPet = url.pathname.startsWith("/v1/pets/");
  if (keyIndex(req.headers.authorization) === -1) {
    return fail(res, 401, "UNAUTHORIZED", "The API key is not valid.", {
      ...UNAUTHORIZED,
      ...(isGetPet ? DEPRECATION : {}),
    });
  }
  if (url.pathname === "/v1/pets") {
    if (req.method === "GET") return void listPets(url, res).catch((error: unknown) => internal(res, error));
    if (req.method === "POST") return createPet(req, res);
  } else if (isGetPet && req.method === "GET") {
    return void getPet(url.pathname.slice("/v1/pets/".length), res).catch((error: unknown) => internal(res, error));
  }
  fail(res, 404, "NOT_FOUND", `No route matches ${req.method} ${url.pathname}.`);
});
server.keepAliveTimeout = 5_000;
server.listen(port, "127.0.0.1");
process.once("SIGTERM", () => server.close(() => void store.close().finally(() => process.exit(0))));
