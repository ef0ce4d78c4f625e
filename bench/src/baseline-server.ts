/**
 * The baseline: the physical limit of this stack (Node's http module and
 * better-sqlite3) for the same work the API does on the benchmarked paths.
 * Same bearer check (SHA-256 digests compared with timingSafeEqual, every key),
 * same queries (limit + 1 rows for the next-page check, status filter, id
 * order) through prepared statements, same JSON bodies and headers that matter
 * (Link, Location, deprecation headers). Not part of the product: no CORS, no
 * helmet, no request ids, no logging, minimal validation.
 *
 * Env: PORT, API_KEYS (comma-separated), DB_FILE (a migrated SQLite file).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import Sqlite from "better-sqlite3";
import { SQLITE_PRAGMAS } from "@petstore/api/database";

const port = Number(process.env["PORT"] ?? 3200);
const keys = (process.env["API_KEYS"] ?? "").split(",").filter(Boolean);
const dbFile = process.env["DB_FILE"];
if (!dbFile || keys.length === 0) throw new Error("DB_FILE and API_KEYS are required");

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
const keyDigests = keys.map(digest);
const BEARER = /^bearer +([^\s]+) *$/i;

function authorized(header: string | undefined): boolean {
  const token = header ? BEARER.exec(header)?.[1] : undefined;
  if (token === undefined) return false;
  const candidate = digest(token);
  let match = false;
  for (const key of keyDigests) if (timingSafeEqual(key, candidate)) match = true;
  return match;
}

const db = new Sqlite(dbFile);
// The API's own connection settings (journal mode, fsync policy), so a create costs the same
// durability on both sides.
db.exec(SQLITE_PRAGMAS);
const COLUMNS = `"id", "name", "categoryId", "status"`;
const listAll = db.prepare(`SELECT ${COLUMNS} FROM "Pet" WHERE "id" > ? ORDER BY "id" ASC LIMIT ?`);
const listByStatus = db.prepare(`SELECT ${COLUMNS} FROM "Pet" WHERE "status" = ? AND "id" > ? ORDER BY "id" ASC LIMIT ?`);
const byId = db.prepare(`SELECT ${COLUMNS} FROM "Pet" WHERE "id" = ?`);
const insert = db.prepare(`INSERT INTO "Pet" ("name", "categoryId", "status") VALUES (?, ?, ?) RETURNING ${COLUMNS}`);

interface Row {
  id: number;
  name: string;
  categoryId: number;
  status: string | null;
}
interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}
const toPet = (row: Row): Pet =>
  row.status === null
    ? { id: row.id, name: row.name, categoryId: row.categoryId }
    : { id: row.id, name: row.name, categoryId: row.categoryId, status: row.status };

const STATUSES = new Set(["available", "pending", "sold"]);
const DIGITS = /^[0-9]+$/;
const DEPRECATION = {
  Deprecation: "@1767225600",
  Sunset: "Thu, 05 Dec 2030 00:00:00 GMT",
  Link: '</v1/pets>; rel="successor-version"',
};

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { ...headers, "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(json) });
  res.end(json);
}
const fail = (res: ServerResponse, status: number, code: string, message: string, headers?: Record<string, string>) =>
  send(res, status, { code, message, status }, headers);

function listPets(url: URL, res: ServerResponse): void {
  const limitText = url.searchParams.get("limit");
  const status = url.searchParams.get("status");
  const afterText = url.searchParams.get("after");
  const limit = limitText === null ? 20 : DIGITS.test(limitText) ? Number(limitText) : NaN;
  const after = afterText === null ? 0 : DIGITS.test(afterText) ? Number(afterText) : NaN;
  if (!(limit >= 1 && limit <= 100) || Number.isNaN(after) || (status !== null && !STATUSES.has(status))) {
    return fail(res, 400, "VALIDATION_ERROR", "Invalid request.");
  }
  const rows = (status === null ? listAll.all(after, limit + 1) : listByStatus.all(status, after, limit + 1)) as Row[];
  const page = rows.slice(0, limit).map(toPet);
  const headers: Record<string, string> = {};
  if (rows.length > limit) {
    const next = new URLSearchParams({ limit: String(limit) });
    if (status !== null) next.set("status", status);
    next.set("after", String(page[page.length - 1]!.id));
    headers["Link"] = `</v1/pets?${next.toString()}>; rel="next"`;
  }
  send(res, 200, page, headers);
}

function getPet(idText: string, res: ServerResponse): void {
  const id = DIGITS.test(idText) ? Number(idText) : 0;
  if (!(id >= 1 && id <= Number.MAX_SAFE_INTEGER)) return fail(res, 400, "VALIDATION_ERROR", "Invalid petId.", DEPRECATION);
  const row = byId.get(id) as Row | undefined;
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
    let body: { name?: unknown; categoryId?: unknown; status?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return fail(res, 400, "VALIDATION_ERROR", "The request body is not valid JSON.");
    }
    const name = typeof body.name === "string" ? body.name.trim() : "";
    const { categoryId, status } = body;
    if (
      name.length < 1 ||
      name.length > 100 ||
      !Number.isSafeInteger(categoryId) ||
      (categoryId as number) < 1 ||
      (status !== undefined && !(typeof status === "string" && STATUSES.has(status)))
    ) {
      return fail(res, 400, "VALIDATION_ERROR", "Invalid request body.");
    }
    const row = insert.get(name, categoryId, status ?? null) as Row;
    send(res, 201, toPet(row), { Location: `/v1/pets/${row.id}` });
  });
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname === "/readyz") return send(res, 200, { status: "ok" });
  const isGetPet = url.pathname.startsWith("/v1/pets/");
  if (!authorized(req.headers.authorization)) {
    return fail(res, 401, "UNAUTHORIZED", "The API key is not valid.", {
      "WWW-Authenticate": 'Bearer realm="petstore"',
      ...(isGetPet ? DEPRECATION : {}),
    });
  }
  if (url.pathname === "/v1/pets") {
    if (req.method === "GET") return listPets(url, res);
    if (req.method === "POST") return createPet(req, res);
  } else if (isGetPet && req.method === "GET") {
    return getPet(url.pathname.slice("/v1/pets/".length), res);
  }
  fail(res, 404, "NOT_FOUND", `No route matches ${req.method} ${url.pathname}.`);
});
server.keepAliveTimeout = 5_000;
server.listen(port, "127.0.0.1");
process.once("SIGTERM", () => server.close(() => process.exit(0)));
