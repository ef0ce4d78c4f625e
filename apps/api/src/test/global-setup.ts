import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../data/migrate.js";
import { createDatabase, databaseUrl, dropDatabase, postgresAvailable } from "./postgres-admin.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated, empty SQLite file that each test copies to get a fresh database. */
    sqliteTemplate: string;
    /** A migrated, empty PostgreSQL database each test clones, or null when no server can be had. */
    postgresTemplate: string | null;
  }
}

export default async function setup(project: TestProject) {
  const folder = mkdtempSync(path.join(tmpdir(), "petstore-test-"));
  const template = path.join(folder, "template.db");

  const postgresTemplate = `petstore_test_template_${process.pid}`;
  const unavailable = await postgresAvailable();
  if (unavailable && process.env["CI"]) {
    throw new Error(`PostgreSQL is required in CI but cannot be reached: ${unavailable}`);
  }
  if (unavailable) {
    console.warn(`PostgreSQL suite not run: no server reachable (${unavailable}); set PG_TEST_URL to run it.`);
  } else {
    await dropDatabase(postgresTemplate);
    await createDatabase(postgresTemplate);
  }
  await Promise.all([
    migrateDatabase(`file:${template}`),
    unavailable ? Promise.resolve() : migrateDatabase(databaseUrl(postgresTemplate)),
  ]);
  project.provide("sqliteTemplate", template);
  project.provide("postgresTemplate", unavailable ? null : postgresTemplate);

  return async () => {
    rmSync(folder, { recursive: true, force: true });
    if (!unavailable) await dropDatabase(postgresTemplate);
  };
}
