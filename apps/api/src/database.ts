import { databaseProvider, sqliteFilePath, type DatabaseProvider } from "./base/database-url.js";
import type { PetRepository } from "./pets/pet-repository.js";
import type { AccessRepository } from "./access/access-repository.js";
import { createAccessRepository } from "./access/sql-access-repository.js";
import type { ActivityLog } from "./activity/activity-log.js";
import { createSqliteActivityLog } from "./activity/sqlite-activity-log.js";
import { createSqlitePetRepository } from "./pets/sqlite-pet-repository.js";
import type { WebhookRepository } from "./webhooks/webhook-repository.js";
import { createSqliteWebhookSenders } from "./webhooks/sqlite-webhook-repository.js";
import { createWebhookRepository } from "./webhooks/sql-webhook-repository.js";
import type { StaffRepository } from "./staff/staff-repository.js";
import { createStaffRepository } from "./staff/sql-staff-repository.js";
import type { ChallengeStore } from "./passkeys/challenge-store.js";
import { createChallengeStore } from "./passkeys/sql-challenge-store.js";
import { createBackgroundWork } from "./data/background-work.js";
import { postgresRunner, sqliteRunner, type SqlRunner } from "./data/sql-work.js";
import { sqliteActivityWriter } from "./activity/sqlite-activity-log.js";
import { ACTIVITY_EXTENSION, type ActivityArgs } from "./activity/recorded-activity.js";
import { groupCommitTally } from "./data/sqlite-group-commit.js";
import type { DatabaseHealth, PoolStats } from "./data/database-health.js";

// Re-exported for the package's `./database` entry (the bench opens databases with it).
export { databaseProvider, sqliteFilePath, type DatabaseProvider, type PoolStats };

/**
 * The composition of the storage: one provider's connection, and the
 * repositories of each room (pets, access, the activity log) on it.
 */
export interface Database extends DatabaseHealth {
  pets: PetRepository;
  /** Issued keys. */
  access: AccessRepository;
  /** The activity log (audit events), which pets and keys write to. */
  activity: ActivityLog;
  /** Webhook endpoints and the outbox of deliveries the activity log's writers fill. */
  webhooks: WebhookRepository;
  /** Staff members, their invitations, passkeys, browser sessions and session tokens. */
  staff: StaffRepository;
  /** The passkey ceremonies' one-time challenges. */
  passkeyChallenges: ChallengeStore;
  /** Units of work written once for both providers (data/sql-work.ts), the activity log's writer joined in. */
  sql: SqlRunner;
  /**
   * Runs database work that no request waits for (a key's last use, a key-set
   * refresh); `close()` waits for it. Refused (rejects) once closing began.
   */
  inBackground<T>(work: () => Promise<T>): Promise<T>;
  /** Waits for the background work in flight, then closes. */
  close(): Promise<void>;
}

/**
 * Set on the API's SQLite connection. WAL + synchronous=FULL: a commit is
 * fsynced before the 201 goes out, so an acknowledged create survives a crash
 * of the process or of the machine. See docs/decisions/004-sqlite-durability.md.
 * temp_store = MEMORY: the savepoint of each create in a group commit keeps the pages it changes in a
 * sub-journal, which past 64 KiB SQLite spilled to a temporary file in /var/tmp: 3.8 KiB written per
 * create, a fifth more than the database's own WAL (docs/decisions/051-sub-journals-in-memory.md).
 * wal_autocheckpoint = 10000 (40 MiB of 4 KiB pages; SQLite's default is 1000): a checkpoint writes each
 * page changed since the last one once, so a page that changes again and again (a table's last page, an
 * index's busy leaf) is written once per 10,000 frames rather than per 1,000. A change of a pet dirties pages
 * all over the table and its indexes; fewer checkpoints wrote 23 KiB per updatePet instead of 28.
 * journal_size_limit: the WAL file is cut back to 64 MiB when it starts again
 * (docs/decisions/057-sqlite-updates-and-checkpoints.md).
 */
export const SQLITE_PRAGMAS =
  "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000; PRAGMA temp_store = MEMORY; " +
  "PRAGMA wal_autocheckpoint = 10000; PRAGMA journal_size_limit = 67108864;";

export interface DatabaseOptions {
  url: string;
  poolSize: number;
  /** SQLite: how long a write waits for another connection's lock before SQLITE_BUSY (a 503). */
  sqliteBusyTimeoutMs?: number;
}

/**
 * PostgreSQL: how long a query waits for a connection (a new one, or a free one
 * from the pool) before it fails as unavailable (a 503), instead of hanging on a
 * database that does not answer.
 */
const PG_CONNECTION_TIMEOUT_MS = 5_000;

/**
 * Opens the database `url` names. A `file:` URL is SQLite (embedded): one
 * better-sqlite3 connection with prepared statements (Prisma migrates it from
 * the CLI; docs/decisions/005). A `postgres://` URL is PostgreSQL through
 * Prisma's generated client and pg adapter, loaded only then.
 */
export async function openDatabase({ url, poolSize, sqliteBusyTimeoutMs }: DatabaseOptions): Promise<Database> {
  if (databaseProvider(url) === "sqlite") {
    const { default: Sqlite } = await import("better-sqlite3");
    const connection = new Sqlite(sqliteFilePath(url));
    connection.exec(SQLITE_PRAGMAS);
    if (sqliteBusyTimeoutMs !== undefined) connection.pragma(`busy_timeout = ${Math.trunc(sqliteBusyTimeoutMs)}`);
    const ping = connection.prepare("SELECT 1");
    const background = createBackgroundWork();
    let closed: Promise<void> | undefined;
    const writeActivity = sqliteActivityWriter(connection);
    const sql = sqliteRunner(connection, {
      [ACTIVITY_EXTENSION]: (_, args) => writeActivity(...(args as ActivityArgs)),
    });
    return {
      provider: "sqlite",
      sql,
      pets: createSqlitePetRepository(connection),
      access: createAccessRepository(sql),
      activity: createSqliteActivityLog(connection),
      webhooks: createWebhookRepository(sql, createSqliteWebhookSenders(connection)),
      staff: createStaffRepository(sql),
      passkeyChallenges: createChallengeStore(sql),
      async isReady() {
        try {
          ping.get();
          return true;
        } catch {
          return false;
        }
      },
      groupCommits: () => groupCommitTally(connection),
      inBackground: (work) => background.run(work),
      close: () => (closed ??= background.drain().then(() => void connection.close())),
    };
  }
  // Prisma's client and the repositories on it are loaded only here: an SQLite process never loads them.
  const [
    { PrismaClient },
    { PrismaPg },
    { default: pg },
    { createPrismaPetRepository },
    { createPrismaActivityLog, recordActivity },
    { createPrismaWebhookSenders },
    { createPreparedQuery },
  ] = await Promise.all([
    import("./generated/pg/client.js"),
    import("@prisma/adapter-pg"),
    import("pg"),
    import("./pets/prisma-pet-repository.js"),
    import("./activity/prisma-activity-log.js"),
    import("./webhooks/prisma-webhook-repository.js"),
    import("./data/postgres-prepared-statements.js"),
  ]);
  // Our own pool, handed to the adapter, so its counts can be read; the adapter leaves closing it to us.
  // Connections open lazily on the first query; callers wait with isReady().
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: PG_CONNECTION_TIMEOUT_MS });
  // An idle connection the server ends (restart, failover, a terminated backend) is dropped by
  // the pool and replaced on the next query. Unheard, that 'error' event would end the process;
  // the adapter listens only while it is connected, and closing outlives it.
  pool.on("error", () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const background = createBackgroundWork();
  let closed: Promise<void> | undefined;
  const sql = postgresRunner(prisma, {
    [ACTIVITY_EXTENSION]: (tx, args) => recordActivity(tx, ...(args as ActivityArgs)),
  });
  return {
    provider: "postgresql",
    sql,
    pets: createPrismaPetRepository(prisma, createPreparedQuery(pool)),
    access: createAccessRepository(sql),
    activity: createPrismaActivityLog(prisma),
    webhooks: createWebhookRepository(sql, createPrismaWebhookSenders(prisma)),
    staff: createStaffRepository(sql),
    passkeyChallenges: createChallengeStore(sql),
    async isReady() {
      try {
        await prisma.$queryRawUnsafe("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },
    poolStats: () => ({ inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    inBackground: (work) => background.run(work),
    close: () =>
      (closed ??= background
        .drain()
        .then(() => prisma.$disconnect())
        .then(() => pool.end())),
  };
}
