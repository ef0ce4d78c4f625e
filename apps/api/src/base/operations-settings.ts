import path from "node:path";
import { z } from "zod";

/**
 * The operator's settings for backups and retention (docs/operations.md): read by the API (scheduled
 * backups, the daily purge) and by the `backup`, `restore` and `retention` commands alike.
 */

const DAY_MS = 86_400_000;
/** The activity log's triggers let a delete through only for rows older than this (the migration's floor). */
export const ACTIVITY_RETENTION_FLOOR_DAYS = 90;

/** A decimal number of days above 0 (`30`, `0.5`; a test may keep seconds' worth), in ms. */
const days = (fallback: number) =>
  z
    .string()
    .regex(/^[0-9]+(\.[0-9]+)?$/, "must be a number of days above 0, like 30 or 0.5")
    .transform(Number)
    .pipe(z.number().positive("must be a number of days above 0"))
    .default(String(fallback));

/** `90s`, `30m`, `6h`, `1d`, in ms. */
const duration = z.string().transform((value, ctx) => {
  const units: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: DAY_MS };
  const match = /^([0-9]+(?:\.[0-9]+)?)(s|m|h|d)$/.exec(value.trim());
  const ms = match ? Math.round(Number(match[1]) * units[match[2]!]!) : 0;
  if (ms < 1_000) {
    ctx.addIssue({ code: "custom", message: "must be a duration of at least 1s, like 90s, 30m or 6h" });
    return z.NEVER;
  }
  return ms;
});

export const operationsEnvShape = {
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_EVERY: duration.optional(),
  BACKUP_KEEP: z
    .string()
    .regex(/^[1-9][0-9]*$/, "must be a positive integer")
    .transform(Number)
    .default("7"),
  BACKUP_SCRATCH_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  ACTIVITY_RETENTION_DAYS: days(400).refine((value) => value >= ACTIVITY_RETENTION_FLOOR_DAYS, {
    message: `must be at least ${ACTIVITY_RETENTION_FLOOR_DAYS} days (the activity log's triggers keep younger rows)`,
  }),
  DELIVERY_RETENTION_DAYS: days(30),
  EVENT_RETENTION_DAYS: days(30),
  DELETED_PET_DAYS: days(30),
};

type OperationsEnv = z.output<z.ZodObject<typeof operationsEnvShape>>;

export interface OperationsSettings {
  backups: {
    /** Where backups go: BACKUP_DIR, else the default folder beside the embedded database. */
    dir: string;
    /** The API's own schedule; undefined: it takes none (BACKUP_EVERY unset). */
    everyMs: number | undefined;
    keep: number;
    scratchDatabaseUrl: string | undefined;
  };
  /** deletedPetMs: how long a deleted pet can be restored before the purge takes it (DELETED_PET_DAYS). */
  retention: { activityMs: number; deliveryMs: number; eventMs: number; deletedPetMs: number };
}

/** Builds the settings, or names the one at fault (BACKUP_EVERY needs a folder of its own). */
export function operationsSettings(
  env: OperationsEnv,
  defaultBackupDir: string,
  ctx: z.RefinementCtx,
): OperationsSettings | typeof z.NEVER {
  if (env.BACKUP_EVERY !== undefined && env.BACKUP_DIR === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["BACKUP_DIR"],
      message: "is required with BACKUP_EVERY: the folder scheduled backups go to (best on another disk)",
    });
    return z.NEVER;
  }
  return {
    backups: {
      dir: path.resolve(env.BACKUP_DIR ?? defaultBackupDir),
      everyMs: env.BACKUP_EVERY,
      keep: env.BACKUP_KEEP,
      scratchDatabaseUrl: env.BACKUP_SCRATCH_DATABASE_URL,
    },
    retention: {
      activityMs: env.ACTIVITY_RETENTION_DAYS * DAY_MS,
      deliveryMs: env.DELIVERY_RETENTION_DAYS * DAY_MS,
      eventMs: env.EVENT_RETENTION_DAYS * DAY_MS,
      deletedPetMs: env.DELETED_PET_DAYS * DAY_MS,
    },
  };
}
