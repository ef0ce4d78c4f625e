// Prisma CLI config for the embedded SQLite database. The JS schema engine and
// the driver adapter keep the CLI from downloading a native engine.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { sqliteFilePath } from "./src/base/database-url.ts";

// The CLI needs a datasource url even for `generate`; the app passes the real one.
process.env["DATABASE_URL"] ??= "file:./data/petstore.db";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/sqlite",
  migrations: { path: "prisma/sqlite/migrations" },
  async adapter() {
    return new PrismaBetterSQLite3({ url: sqliteFilePath(process.env["DATABASE_URL"]!) });
  },
});
