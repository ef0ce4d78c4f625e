export type DatabaseProvider = "sqlite" | "postgresql";

/** `postgres://` or `postgresql://` is PostgreSQL; anything else (`file:`) is the embedded SQLite. */
export function databaseProvider(url: string): DatabaseProvider {
  return /^postgres(ql)?:\/\//.test(url) ? "postgresql" : "sqlite";
}

/** Path of the SQLite file a `file:` URL names (`file:x.db`, `file://x.db`). */
export function sqliteFilePath(url: string): string {
  return url.replace(/^file:(\/\/)?/, "");
}
