import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ScheduledBackupResult } from "./schedules.js";

/**
 * Runs the operator's `backup` command as a child process for the API's schedule: copying and verifying
 * a large database (integrity_check reads every page) would otherwise hold the API's event loop. The
 * child reads the same database by its own connection; it reports with the command's `--json` line.
 */
export function backupInChildProcess({
  dir,
  keep,
  databaseUrl,
  scratchDatabaseUrl,
}: {
  dir: string;
  keep: number;
  databaseUrl: string;
  scratchDatabaseUrl: string | undefined;
}): (signal: AbortSignal) => Promise<ScheduledBackupResult> {
  // This process's environment passed through whole (PATH for pg_dump, locale), not read as configuration;
  // the database is the one this process serves, however it was configured.
  // eslint-disable-next-line no-restricted-properties -- inherited by the child, not configuration (see env.ts)
  const environment: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl };
  if (scratchDatabaseUrl) environment["BACKUP_SCRATCH_DATABASE_URL"] = scratchDatabaseUrl;
  // Beside this file's folder, in the same form as this module (.js built, .ts under tsx in development).
  const extension = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  const command = fileURLToPath(new URL(`../operations-command${extension}`, import.meta.url));
  return (signal) =>
    new Promise((resolve, reject) => {
      // Ended at the API's close (SIGTERM); the `.partial` it leaves is removed by a later rotation.
      const child = fork(command, ["backup", "--to", dir, "--keep", String(keep), "--json"], {
        env: environment,
        stdio: ["ignore", "pipe", "pipe", "ipc"],
        signal,
      });
      let stdout = "";
      let stderr = "";
      child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("error", reject);
      child.on("exit", (code) => {
        const line = stdout.trim().split("\n").at(-1) ?? "";
        if ((code === 0 || code === 2) && line.startsWith("{"))
          return resolve(JSON.parse(line) as ScheduledBackupResult);
        reject(new Error(stderr.trim().split("\n").at(-1) || `the backup command exited with ${code}`));
      });
    });
}
