// Prisma CLI config for PostgreSQL (scale-out). The JS schema engine and the
// driver adapter keep the CLI from downloading a native engine.
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

// The CLI needs a datasource url even for `generate`; the app passes the real one.
process.env["DATABASE_URL"] ??= "postgresql://postgres@127.0.0.1:5432/petstore";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/postgresql",
  migrations: { path: "prisma/postgresql/migrations" },
  async adapter() {
    // Discrete fields, not a connection string: the adapter's shadow database
    // handling spreads this config with another database name, which a
    // connection string would override.
    const url = new URL(process.env["DATABASE_URL"]!);
    return new PrismaPg({
      host: url.hostname,
      port: Number(url.port || 5432),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password) || undefined,
      database: url.pathname.slice(1),
      idleTimeoutMillis: 100,
    });
  },
});
