/**
 * What the floors share: the production floor (express-floor-server.ts), the
 * bare Express floor (bare-express-floor-server.ts; the two through
 * express-floor-app.ts) and the baseline (baseline-server.ts): the bearer
 * check, the hand-written query and body checks, the row-to-JSON mapping, the
 * headers, and the three pet stores
 * (prepared better-sqlite3 statements, a `pg` Pool with the same SQL, and the
 * API's generated Prisma client making the API's calls). Not part of the product.
 */
import { createHash, timingSafeEqual } from "node:crypto";

// ---- bearer check ------------------------------------------------------------

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
const BEARER = /^bearer +([^\s]+) *$/i;

/** The API's check: SHA-256 digests compared with timingSafeEqual, every key. Returns the key's index or -1. */
export function createKeyCheck(keys: readonly string[]): (authorization: string | undefined) => number {
  const keyDigests = keys.map(digest);
  return (authorization) => {
    const token = authorization ? BEARER.exec(authorization)?.[1] : undefined;
    if (token === undefined) return -1;
    const candidate = digest(token);
    let match = -1;
    keyDigests.forEach((key, index) => {
      if (timingSafeEqual(key, candidate) && match === -1) match = index;
    });
    return match;
  };
}

// ---- checks --------------------------------------------------------------------

export const STATUSES: ReadonlySet<string> = new Set(["available", "pending", "sold"]);
const DIGITS = /^[0-9]+$/;
const MAX_ID = Number.MAX_SAFE_INTEGER;

export interface ListQuery {
  limit: number;
  status: string | undefined;
  after: number | undefined;
}

/** limit 1..100 (default 20), status in the enum, after 0..2^53-1; decimal digits only. Undefined when invalid. */
export function parseListQuery(get: (name: string) => string | null | undefined): ListQuery | undefined {
  const limitText = get("limit");
  const status = get("status") ?? undefined;
  const afterText = get("after");
  const limit = limitText === null || limitText === undefined ? 20 : DIGITS.test(limitText) ? Number(limitText) : NaN;
  const after =
    afterText === null || afterText === undefined ? undefined : DIGITS.test(afterText) ? Number(afterText) : NaN;
  if (!(limit >= 1 && limit <= 100)) return undefined;
  if (after !== undefined && !(after >= 0 && after <= MAX_ID)) return undefined;
  if (status !== undefined && !STATUSES.has(status)) return undefined;
  return { limit, status, after };
}

/** A path id: decimal digits, 1..2^53-1; 0 when invalid. */
export function parsePetId(text: string): number {
  const id = DIGITS.test(text) ? Number(text) : 0;
  return id >= 1 && id <= MAX_ID ? id : 0;
}

export interface NewPet {
  name: string;
  categoryId: number;
  status: string | undefined;
}

/** name: string, trimmed, 1..100; categoryId: integer 1..2^53-1; status: optional enum. Undefined when invalid. */
export function parseNewPet(body: unknown): NewPet | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const { name, categoryId, status } = body as Record<string, unknown>;
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (trimmed.length < 1 || trimmed.length > 100) return undefined;
  if (typeof categoryId !== "number" || !Number.isSafeInteger(categoryId) || categoryId < 1) return undefined;
  if (status !== undefined && !(typeof status === "string" && STATUSES.has(status))) return undefined;
  return { name: trimmed, categoryId, status: status as string | undefined };
}

// ---- bodies and headers ----------------------------------------------------------

/** A row as the drivers return it: int64 as number (better-sqlite3), bigint (Prisma) or string (pg). */
export interface Row {
  id: number | bigint | string;
  name: string;
  categoryId: number | bigint | string;
  status: string | null;
}
export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}
export function toPet(row: Row): Pet {
  const id = Number(row.id);
  const categoryId = Number(row.categoryId);
  return row.status === null
    ? { id, name: row.name, categoryId }
    : { id, name: row.name, categoryId, status: row.status };
}

export const errorBody = (status: number, code: string, message: string) => ({ code, message, status });

/** The deprecated getPet's headers (the contract's dates). */
export const DEPRECATION: Readonly<Record<string, string>> = {
  Deprecation: "@1767225600",
  Sunset: "Thu, 05 Dec 2030 00:00:00 GMT",
  Link: '</v1/pets>; rel="successor-version"',
};

export const UNAUTHORIZED = { "WWW-Authenticate": 'Bearer realm="petstore"' };

/** The security headers the API sends on its JSON answers (X-Request-Id is added per request). */
export const JSON_API_HEADERS: Readonly<Record<string, string>> = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
};

/** The `Link: <...>; rel="next"` of a page that has more (the API's parameter order). */
export function nextLink(query: ListQuery, lastId: number): string {
  const next = new URLSearchParams({ limit: String(query.limit) });
  if (query.status !== undefined) next.set("status", query.status);
  next.set("after", String(lastId));
  return `</v1/pets?${next.toString()}>; rel="next"`;
}

/** One page: limit + 1 rows tell whether there is a next page. */
export async function listPage(store: PetStore, query: ListQuery): Promise<{ page: Pet[]; link: string | undefined }> {
  const rows = await store.list(query.limit + 1, query.status, query.after);
  const page = rows.slice(0, query.limit).map(toPet);
  const last = page[page.length - 1];
  return { page, link: rows.length > query.limit && last ? nextLink(query, last.id) : undefined };
}

// ---- stores -------------------------------------------------------------------------

export interface PetStore {
  list(take: number, status: string | undefined, after: number | undefined): Promise<Row[]>;
  findById(id: number): Promise<Row | undefined>;
  create(pet: NewPet): Promise<Row>;
  close(): Promise<void>;
}

/** The API's SQL (apps/api/src/pets/sqlite-pet-repository.ts): id order, optional status filter, `after` as id > ?. */
const COLUMNS = `"id", "name", "categoryId", "status"`;
const sql = (placeholder: (n: number) => string) => ({
  listAll: `SELECT ${COLUMNS} FROM "Pet" WHERE "id" > ${placeholder(1)} ORDER BY "id" ASC LIMIT ${placeholder(2)}`,
  listByStatus: `SELECT ${COLUMNS} FROM "Pet" WHERE "status" = ${placeholder(1)} AND "id" > ${placeholder(2)} ORDER BY "id" ASC LIMIT ${placeholder(3)}`,
  byId: `SELECT ${COLUMNS} FROM "Pet" WHERE "id" = ${placeholder(1)}`,
  insert: `INSERT INTO "Pet" ("name", "categoryId", "status") VALUES (${placeholder(1)}, ${placeholder(2)}, ${placeholder(3)}) RETURNING ${COLUMNS}`,
  // SQLite: createdAt as the API writes it (as Prisma would), in the statement.
  insertWithCreatedAt: `INSERT INTO "Pet" ("name", "categoryId", "status", "createdAt") VALUES (?, ?, ?, ?) RETURNING ${COLUMNS}`,
});

/** SQLite: prepared better-sqlite3 statements on one connection with the API's pragmas. */
export async function openSqliteStore(url: string): Promise<PetStore> {
  const [{ default: Sqlite }, { SQLITE_PRAGMAS, sqliteFilePath }] = await Promise.all([
    import("better-sqlite3"),
    import("@petstore/api/database"),
  ]);
  const db = new Sqlite(sqliteFilePath(url));
  // The API's connection settings (journal mode, fsync policy): a create costs the same durability.
  db.exec(SQLITE_PRAGMAS);
  const q = sql(() => "?");
  const listAll = db.prepare(q.listAll);
  const listByStatus = db.prepare(q.listByStatus);
  const byId = db.prepare(q.byId);
  const insert = db.prepare(q.insertWithCreatedAt);
  return {
    list: async (take, status, after = 0) =>
      (status === undefined ? listAll.all(after, take) : listByStatus.all(status, after, take)) as Row[],
    findById: async (id) => byId.get(id) as Row | undefined,
    create: async ({ name, categoryId, status }) =>
      insert.get(name, categoryId, status ?? null, new Date().toISOString().replace("Z", "+00:00")) as Row,
    close: async () => void db.close(),
  };
}

/** PostgreSQL, plainly: a `pg` Pool (as many connections as the API's pool) and the same SQL. */
export async function openPgStore(url: string, max: number): Promise<PetStore> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url, max });
  const q = sql((n) => `$${n}`);
  return {
    list: async (take, status, after = 0) =>
      (status === undefined
        ? await pool.query<Row>(q.listAll, [after, take])
        : await pool.query<Row>(q.listByStatus, [status, after, take])
      ).rows,
    findById: async (id) => (await pool.query<Row>(q.byId, [id])).rows[0],
    create: async ({ name, categoryId, status }) =>
      (await pool.query<Row>(q.insert, [name, categoryId, status ?? null])).rows[0]!,
    close: () => pool.end(),
  };
}

/**
 * PostgreSQL through the API's own generated Prisma client
 * (`@petstore/api/prisma-client`) and @prisma/adapter-pg, making exactly the
 * calls of apps/api/src/pets/prisma-pet-repository.ts.
 */
export async function openPrismaStore(url: string, max: number): Promise<PetStore> {
  // The API's own generated client, so the floor makes exactly the API's Prisma calls.
  const [{ PrismaClient }, { PrismaPg }] = await Promise.all([
    import("@petstore/api/prisma-client"),
    import("@prisma/adapter-pg"),
  ]);
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
  const select = { id: true, name: true, categoryId: true, status: true } as const;
  return {
    list: (take, status, after) =>
      prisma.pet.findMany({
        select,
        where: {
          ...(status !== undefined ? { status } : {}),
          ...(after !== undefined ? { id: { gt: BigInt(after) } } : {}),
        },
        orderBy: { id: "asc" },
        take,
      }),
    findById: async (id) => (await prisma.pet.findUnique({ select, where: { id: BigInt(id) } })) ?? undefined,
    create: ({ name, categoryId, status }) =>
      prisma.pet.create({ select, data: { name, categoryId: BigInt(categoryId), status: status ?? null } }),
    close: () => prisma.$disconnect(),
  };
}

/**
 * What a floor server starts from, by its environment: PORT, API_KEYS
 * (comma-separated), DATABASE_URL (a migrated `file:` SQLite file or a
 * `postgres://` URL), DATABASE_POOL_SIZE (PostgreSQL, default 10). `postgres`
 * picks the PostgreSQL client: plain `pg` or the API's Prisma client.
 */
export async function floorSetup(
  postgres: "pg" | "prisma",
): Promise<{ port: number; keyIndex: ReturnType<typeof createKeyCheck>; store: PetStore }> {
  const keys = (process.env["API_KEYS"] ?? "").split(",").filter(Boolean);
  const databaseUrl = process.env["DATABASE_URL"] ?? "";
  if (!databaseUrl || keys.length === 0) throw new Error("DATABASE_URL and API_KEYS are required");
  const poolSize = Number(process.env["DATABASE_POOL_SIZE"] ?? 10);
  const store = !/^postgres(ql)?:\/\//.test(databaseUrl)
    ? await openSqliteStore(databaseUrl)
    : postgres === "pg"
      ? await openPgStore(databaseUrl, poolSize)
      : await openPrismaStore(databaseUrl, poolSize);
  return { port: Number(process.env["PORT"] ?? 3200), keyIndex: createKeyCheck(keys), store };
}
