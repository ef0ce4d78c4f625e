import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../migrate.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated, empty SQLite file that each test copies to get a fresh database. */
    sqliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const folder = mkdtempSync(path.join(tmpdir(), "petstore-test-"));
  const template = path.join(folder, "template.db");
  await migrateDatabase(`file:${template}`);
  project.provide("sqliteTemplate", template);
  return () => rmSync(folder, { recursive: true, force: true });
}
