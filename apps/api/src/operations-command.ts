/**
 * The operator's commands for the data (docs/operations.md), on the database DATABASE_URL names:
 *
 *   backup [--to DIR] [--keep N]     a verified backup while the API serves; prints path, size, pets, seconds
 *   restore FILE [--force] [--replace]   refuses, with one line, whatever would break the target
 *   retention                        the retention purge now; prints what it purged
 *
 * Run as `corepack pnpm --filter @petstore/api backup|restore|retention ...` (after a build). Each prints
 * one line and exits 0, or prints why not and exits 1 with the database left as it was. `--json` prints
 * the result as one JSON line (how the API's scheduled backups read it).
 */
import { parseArgs } from "node:util";
import { ConfigError, loadDotEnvFile, readOperationsConfig } from "./base/env.js";
import { openDatabase } from "./database.js";
import { migrateDatabase } from "./data/migrate.js";
import { BackupRefusal, rotateBackups } from "./maintenance/backup-file.js";
import { takeBackup } from "./maintenance/backup.js";
import { restoreBackup } from "./maintenance/restore.js";
import { describePurge, purgeExpired } from "./maintenance/retention.js";
import { databaseProvider } from "./base/database-url.js";

const USAGE = `Usage:
  backup [--to DIR] [--keep N] [--json]
  restore FILE [--force] [--replace]
  retention`;

class UsageError extends Error {}

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(bytes < 10_485_760 ? 2 : 0)} MB`;

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      to: { type: "string" },
      keep: { type: "string" },
      json: { type: "boolean" },
      force: { type: "boolean" },
      replace: { type: "boolean" },
    },
    allowPositionals: true,
    strict: true,
  });
  loadDotEnvFile();
  const config = readOperationsConfig();
  const print = (line: string, result: object) =>
    process.stdout.write(values.json ? `${JSON.stringify(result)}\n` : `${line}\n`);

  if (command === "backup") {
    if (values.keep !== undefined && !/^[1-9][0-9]*$/.test(values.keep))
      throw new UsageError(`--keep must be a positive integer.\n${USAGE}`);
    const dir = values.to ?? config.operations.backups.dir;
    const report = await takeBackup({
      databaseUrl: config.databaseUrl,
      dir,
      scratchDatabaseUrl: config.operations.backups.scratchDatabaseUrl,
    });
    const rotated = values.keep ? rotateBackups(dir, databaseProvider(config.databaseUrl), Number(values.keep)) : [];
    print(
      `${report.verified ? "backup" : "backup UNVERIFIED"}: ${report.file}, ${megabytes(report.bytes)}, ${report.pets} pets, ${report.seconds.toFixed(1)} s` +
        (report.verified ? ", verified by a restore" : ` (${report.unverifiedReason}); it is not counted good`) +
        (rotated.length > 0 ? `; removed ${rotated.length} older` : ""),
      { ...report, rotated },
    );
    if (!report.verified) process.exitCode = 2;
  } else if (command === "restore") {
    const [file] = positionals;
    if (!file || positionals.length > 1) throw new UsageError(USAGE);
    const report = await restoreBackup({
      file,
      databaseUrl: config.databaseUrl,
      force: values.force ?? false,
      replace: values.replace ?? false,
    });
    print(
      `restored ${file} into ${report.target}${report.pets === undefined ? "" : `: ${report.pets} pets`}; ${report.migrations} migrations applied in it, and the API migrates it on start if it is older than the code`,
      report,
    );
  } else if (command === "retention") {
    await migrateDatabase(config.databaseUrl);
    const database = await openDatabase({
      url: config.databaseUrl,
      poolSize: 1,
      sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs,
    });
    try {
      const counts = await purgeExpired(database.sql, {
        ...config.operations.retention,
        idempotencyMs: config.idempotencyTtlMs,
      });
      print(`retention: purged ${describePurge(counts)}`, counts);
    } finally {
      await database.close();
    }
  } else {
    throw new UsageError(USAGE);
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  const known = error instanceof UsageError || error instanceof ConfigError || error instanceof BackupRefusal;
  const command = process.argv[2] ?? "operations";
  process.stderr.write(
    `${known && !(error instanceof BackupRefusal) ? (error as Error).message : `${command}: ${error instanceof Error ? error.message : String(error)}`}\n`,
  );
  process.exitCode = 1;
});
