import type { DatabaseProvider } from "../base/database-url.js";
import type { GroupCommitTally } from "./sqlite-group-commit.js";

/** What the probes and the metrics read of a database: whether it answers, and its pool. */
export interface DatabaseHealth {
  provider: DatabaseProvider;
  /** True when a trivial query succeeds. */
  isReady(): Promise<boolean>;
  /** PostgreSQL only: the connection pool's clients, for the metrics. */
  poolStats?(): PoolStats;
  /** SQLite only: the commits of creates committed together (group commit) and the creates they carried. */
  groupCommits?(): Readonly<GroupCommitTally>;
}

export interface PoolStats {
  inUse: number;
  idle: number;
  /** Queries queued for a connection. */
  waiting: number;
}
