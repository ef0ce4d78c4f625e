/**
 * The operator command for issued keys, on the database DATABASE_URL names:
 *
 *   keys create --name NAME --scope read|write|admin [--expires ISO]   prints the secret, once
 *   keys list
 *   keys revoke ID
 *
 * Run as `corepack pnpm --filter @petstore/api keys ...` (after a build). It
 * works on a store where no admin key is in a browser yet; its changes are
 * audited with the actor "Operator command". Running API processes pick up a
 * new or revoked key within 2 seconds.
 */
import { KeyIdParams, LIST_KEYS_MAX, NewApiKey, type ApiKey } from "@petstore/contract";
import type { AccessRepository } from "./access/access-repository.js";
import { parseArgs } from "node:util";
import { OPERATOR_CONTEXT } from "./activity/audit-event.js";
import { issueKey } from "./access/issue-key.js";
import { openDatabase } from "./database.js";
import { migrateDatabase } from "./data/migrate.js";
import { ConfigError, loadDotEnvFile, readDatabaseConfig } from "./base/env.js";

const USAGE = `Usage:
  keys create --name NAME --scope read|write|admin [--expires ISO-8601 date-time]
  keys list
  keys revoke ID`;

class UsageError extends Error {}

const status = (key: ApiKey, now = Date.now()) =>
  key.revokedAt ? "revoked" : key.expiresAt && Date.parse(key.expiresAt) <= now ? "expired" : "active";

function describe(key: ApiKey): string {
  return `key ${key.id} "${key.name}" (${key.scope}, prefix ${key.prefix}, ${status(key)}${key.expiresAt ? `, expires ${key.expiresAt}` : ""})`;
}

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  loadDotEnvFile();
  const config = readDatabaseConfig();
  const parsed = parseArgs({
    args: rest,
    options: { name: { type: "string" }, scope: { type: "string" }, expires: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  if (command !== "create" && command !== "list" && command !== "revoke") throw new UsageError(USAGE);

  await migrateDatabase(config.databaseUrl);
  const database = await openDatabase({
    url: config.databaseUrl,
    poolSize: 1,
    sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs,
  });
  try {
    if (command === "create") {
      const input = NewApiKey.safeParse({
        name: parsed.values.name,
        scope: parsed.values.scope,
        expiresAt: parsed.values.expires,
      });
      if (!input.success) {
        throw new UsageError(
          `${input.error.issues.map((issue) => `--${issue.path[0] === "expiresAt" ? "expires" : issue.path[0]}: ${issue.message}`).join("; ")}\n${USAGE}`,
        );
      }
      const { name, scope, expiresAt } = input.data;
      const issued = await issueKey(
        database.access,
        { name, scope, expiresAt: expiresAt ? new Date(expiresAt) : null, createdBy: null, createdByStaffId: null },
        OPERATOR_CONTEXT,
      );
      process.stderr.write(`Created ${describe(issued.key)}.\nIts secret follows, shown this once: store it now.\n`);
      process.stdout.write(`${issued.secret}\n`);
    } else if (command === "list") {
      const keys = await allKeys(database.access);
      if (keys.length === 0) process.stdout.write("No issued keys.\n");
      for (const key of keys) {
        process.stdout.write(
          [
            key.id,
            key.name,
            key.scope,
            key.prefix,
            status(key),
            `created ${key.createdAt}`,
            `last used ${key.lastUsedAt ?? "never"}`,
          ].join("\t") + "\n",
        );
      }
    } else {
      const id = KeyIdParams.safeParse({ keyId: parsed.positionals[0] ?? "" });
      if (!id.success) throw new UsageError(`ID must be an issued key's id (decimal digits).\n${USAGE}`);
      const key = await database.access.revokeKey(id.data.keyId, OPERATOR_CONTEXT);
      if (!key) throw new UsageError(`No issued key has id ${id.data.keyId}.`);
      process.stdout.write(`Revoked ${describe(key)}.\n`);
    }
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof UsageError || error instanceof ConfigError ? error.message : error instanceof Error ? `keys: ${error.message}` : String(error)}\n`,
  );
  process.exitCode = 1;
});

/** Every issued key, newest first, read a page at a time (listKeys has no cap but its page size). */
async function allKeys(access: AccessRepository): Promise<ApiKey[]> {
  const keys: ApiKey[] = [];
  for (;;) {
    const page = await access.listKeys({ take: LIST_KEYS_MAX, before: keys.at(-1)?.id });
    keys.push(...page);
    if (page.length < LIST_KEYS_MAX) return keys;
  }
}
