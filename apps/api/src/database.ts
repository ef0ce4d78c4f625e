import type { Pet } from "@petstore/contract";
import type { PrismaClient } from "./generated/sqlite/client.js";
import type { PetRepository } from "./pets/pet-repository.js";
import { createSqlitePetRepository } from "./pets/sqlite-pet-repository.js";

export type DatabaseProvider = "sqlite" | "postgresql";

export interface Database {
  provider: DatabaseProvider;
  pets: PetRepository;
  /** True when a trivial query succeeds. */
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

export function databaseProvider(url: string): DatabaseProvider {
  return /^postgres(ql)?:\/\//.test(url) ? "postgresql" : "sqlite";
}

/** Path of the SQLite file a `file:` URL names. */
export function sqliteFilePath(url: string): string {
  return url.replace(/^file:(\/\/)?/, "");
}

/**
 * Set on every SQLite connection the adapter opens (it opens the file itself,
 * so its `connect` is wrapped). WAL + synchronous=FULL: a commit is fsynced
 * before the 201 goes out, so an acknowledged create survives a crash of the
 * process or of the machine. See docs/decisions/004-sqlite-durability.md.
 */
export const SQLITE_PRAGMAS = "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;";

export function withSqlitePragmas<T extends { connect(): Promise<{ executeScript(script: string): Promise<void> }> }>(
  factory: T,
): T {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    await adapter.executeScript(SQLITE_PRAGMAS);
    return adapter;
  };
  return factory;
}

export interface DatabaseOptions {
  url: string;
  poolSize: number;
}

/**
 * Opens the database `url` names: a `file:` URL is SQLite (embedded), a
 * `postgres://` URL is PostgreSQL. Each provider has its own generated client;
 * only the one in use is loaded.
 */
export async function openDatabase({ url, poolSize }: DatabaseOptions): Promise<Database> {
  const provider = databaseProvider(url);
  let prisma: PrismaClient;
  let pets: PetRepository | undefined;
  let closeConnection = () => {};
  if (provider === "sqlite") {
    const [{ PrismaClient: SqliteClient }, { PrismaBetterSQLite3 }] = await Promise.all([
      import("./generated/sqlite/client.js"),
      import("@prisma/adapter-better-sqlite3"),
    ]);
    prisma = new SqliteClient({ adapter: withSqlitePragmas(new PrismaBetterSQLite3({ url: sqliteFilePath(url) })) });
    // The hot path: prepared statements on a connection of our own, same pragmas
    // (docs/decisions/005-sqlite-hot-path.md). Prisma migrates and answers isReady.
    const { default: Sqlite } = await import("better-sqlite3");
    const connection = new Sqlite(sqliteFilePath(url));
    connection.exec(SQLITE_PRAGMAS);
    pets = createSqlitePetRepository(connection);
    closeConnection = () => connection.close();
  } else {
    const [{ PrismaClient: PostgresClient }, { PrismaPg }] = await Promise.all([
      import("./generated/pg/client.js"),
      import("@prisma/adapter-pg"),
    ]);
    // Both clients are generated from the same models file, so their pet delegates agree.
    prisma = new PostgresClient({
      adapter: new PrismaPg({ connectionString: url, max: poolSize }),
    }) as unknown as PrismaClient;
  }
  // Connections open lazily on the first query; callers wait with isReady().
  return {
    provider,
    pets: pets ?? createPrismaPetRepository(prisma),
    async isReady() {
      try {
        await prisma.$queryRawUnsafe("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      closeConnection();
      await prisma.$disconnect();
    },
  };
}

const petColumns = { id: true, name: true, categoryId: true, status: true } as const;

interface PetRow {
  id: bigint;
  name: string;
  categoryId: bigint;
  status: string | null;
}

/** Storage holds int64 as bigint; JSON carries ids as numbers, exact below 2^53. */
function toPet(row: PetRow): Pet {
  const pet: Pet = { id: Number(row.id), name: row.name, categoryId: Number(row.categoryId) };
  if (row.status !== null) pet.status = row.status as NonNullable<Pet["status"]>;
  return pet;
}

export function createPrismaPetRepository(prisma: PrismaClient): PetRepository {
  return {
    async list({ take, status, after }) {
      const rows = await prisma.pet.findMany({
        select: petColumns,
        where: {
          ...(status !== undefined ? { status } : {}),
          ...(after !== undefined ? { id: { gt: BigInt(after) } } : {}),
        },
        orderBy: { id: "asc" },
        take,
      });
      return rows.map(toPet);
    },
    async create(pet) {
      const row = await prisma.pet.create({
        select: petColumns,
        data: { name: pet.name, categoryId: BigInt(pet.categoryId), status: pet.status ?? null },
      });
      return toPet(row);
    },
    async findById(id) {
      const row = await prisma.pet.findUnique({ select: petColumns, where: { id: BigInt(id) } });
      return row ? toPet(row) : null;
    },
  };
}
