import { createHash } from "node:crypto";
import { createReadStream, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { DatabaseProvider } from "../base/database-url.js";

/**
 * Backup files on disk: `petstore-<UTC date-time>.<sqlite|pgdump>`, each with a SHA-256 sidecar
 * (`<file>.sha256`, the `sha256sum` format, so `sha256sum -c` checks it too). A backup that could not be
 * verified also carries `<file>.unverified`: it is kept, but never counted good.
 */

/** Why a backup or restore did not happen: one line for the operator, the target left as it was. */
export class BackupRefusal extends Error {}

export const BACKUP_EXTENSION: Record<DatabaseProvider, string> = { sqlite: "sqlite", postgresql: "pgdump" };
const STALE_PARTIAL_MS = 3_600_000;
const BACKUP_NAME = /^petstore-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.(sqlite|pgdump)$/;

/** `petstore-2026-11-28T09-50-00-123Z.sqlite`: sorts in time order, no `:` (refused by some file systems). */
export function backupFileName(provider: DatabaseProvider, at: Date): string {
  return `petstore-${at.toISOString().replaceAll(":", "-").replace(".", "-")}.${BACKUP_EXTENSION[provider]}`;
}

export const sidecarOf = (file: string) => `${file}.sha256`;
export const unverifiedMarkerOf = (file: string) => `${file}.unverified`;

/** The file's SHA-256, hex, read as a stream (a backup may be larger than memory). */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export async function writeSidecar(file: string): Promise<string> {
  const digest = await sha256OfFile(file);
  writeFileSync(sidecarOf(file), `${digest}  ${path.basename(file)}\n`);
  return digest;
}

/** Refuses a file without its sidecar, or whose SHA-256 is not the sidecar's. */
export async function checkSidecar(file: string): Promise<void> {
  const sidecar = sidecarOf(file);
  if (!existsSync(sidecar)) {
    throw new BackupRefusal(
      `${path.basename(sidecar)} is missing: nothing tells whether ${path.basename(file)} is whole (make one with sha256sum only if you trust the file)`,
    );
  }
  const expected = /^([0-9a-f]{64})\b/i.exec(readFileSync(sidecar, "utf8").trim())?.[1]?.toLowerCase();
  if (!expected) throw new BackupRefusal(`${path.basename(sidecar)} holds no SHA-256`);
  const actual = await sha256OfFile(file);
  if (actual !== expected) {
    throw new BackupRefusal(
      `${path.basename(file)} does not match its SHA-256 sidecar (${actual.slice(0, 12)}… is not ${expected.slice(0, 12)}…): the file is damaged or not the one backed up`,
    );
  }
}

export interface BackupOnDisk {
  file: string;
  verified: boolean;
  bytes: number;
}

/** This folder's backups of one provider, newest first. */
export function backupsIn(dir: string, provider: DatabaseProvider): BackupOnDisk[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name) && name.endsWith(`.${BACKUP_EXTENSION[provider]}`))
    .sort()
    .reverse()
    .map((name) => path.join(dir, name))
    .map((file) => ({
      file,
      verified: existsSync(sidecarOf(file)) && !existsSync(unverifiedMarkerOf(file)),
      bytes: statSync(file).size,
    }));
}

/**
 * Keeps the newest `keep` verified backups; deletes older verified ones and any unverified one older
 * than the newest verified (it was never good, and a good one has come since). Returns the deleted files.
 */
export function rotateBackups(dir: string, provider: DatabaseProvider, keep: number): string[] {
  const all = backupsIn(dir, provider);
  const newestVerified = all.findIndex((backup) => backup.verified);
  const keptVerified = new Set(
    all
      .filter((backup) => backup.verified)
      .slice(0, keep)
      .map((backup) => backup.file),
  );
  const deleted: string[] = [];
  // A backup ended half-way (its process killed) leaves its `.partial`; one an hour old is nobody's.
  for (const name of readdirSync(dir).filter((entry) => entry.startsWith("petstore-") && entry.endsWith(".partial"))) {
    const file = path.join(dir, name);
    if (Date.now() - statSync(file).mtimeMs > STALE_PARTIAL_MS) {
      rmSync(file, { force: true });
      deleted.push(file);
    }
  }
  all.forEach((backup, index) => {
    const old = backup.verified ? !keptVerified.has(backup.file) : newestVerified !== -1 && index > newestVerified;
    if (!old) return;
    for (const file of [backup.file, sidecarOf(backup.file), unverifiedMarkerOf(backup.file)])
      rmSync(file, { force: true });
    deleted.push(backup.file);
  });
  return deleted;
}
