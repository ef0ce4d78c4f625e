import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_BACKUP_DIR, readConfig, readOperationsConfig } from "./env.js";

const DAY = 86_400_000;
const base = { NODE_ENV: "test", API_KEYS: "test-key-0123456789abcdefghijklmnop" };

describe("the operations settings (backups, retention)", () => {
  it("default: no schedule, seven kept, the folder beside the embedded database, activity 400 days, deliveries and events 30", () => {
    const { operations } = readConfig(base);
    expect(operations).toEqual({
      backups: { dir: DEFAULT_BACKUP_DIR, everyMs: undefined, keep: 7, scratchDatabaseUrl: undefined },
      retention: { activityMs: 400 * DAY, deliveryMs: 30 * DAY, eventMs: 30 * DAY, deletedPetMs: 30 * DAY },
    });
  });

  it("reads durations and decimal days (a test keeps seconds' worth)", () => {
    const { operations } = readConfig({
      ...base,
      BACKUP_DIR: "backups",
      BACKUP_EVERY: "6h",
      BACKUP_KEEP: "3",
      DELIVERY_RETENTION_DAYS: "0.5",
      EVENT_RETENTION_DAYS: "0.0001",
    });
    expect(operations.backups).toMatchObject({ dir: path.resolve("backups"), everyMs: 6 * 3_600_000, keep: 3 });
    expect(operations.retention).toMatchObject({ deliveryMs: DAY / 2, eventMs: 0.0001 * DAY });
    expect(readConfig({ ...base, BACKUP_DIR: "b", BACKUP_EVERY: "90s" }).operations.backups.everyMs).toBe(90_000);
    expect(readConfig({ ...base, BACKUP_DIR: "b", BACKUP_EVERY: "30m" }).operations.backups.everyMs).toBe(1_800_000);
  });

  it.each([
    [
      { ACTIVITY_RETENTION_DAYS: "89" },
      "ACTIVITY_RETENTION_DAYS must be at least 90 days (the activity log's triggers keep younger rows)",
    ],
    [{ BACKUP_EVERY: "1h" }, "BACKUP_DIR is required with BACKUP_EVERY"],
    [
      { BACKUP_DIR: "b", BACKUP_EVERY: "hourly" },
      "BACKUP_EVERY must be a duration of at least 1s, like 90s, 30m or 6h",
    ],
    [{ BACKUP_DIR: "b", BACKUP_EVERY: "500ms" }, "BACKUP_EVERY must be a duration of at least 1s"],
    [{ BACKUP_KEEP: "0" }, "BACKUP_KEEP must be a positive integer"],
    [{ DELIVERY_RETENTION_DAYS: "0" }, "DELIVERY_RETENTION_DAYS must be a number of days above 0"],
    [{ EVENT_RETENTION_DAYS: "-1" }, "EVENT_RETENTION_DAYS must be a number of days above 0, like 30 or 0.5"],
    [
      { BACKUP_SCRATCH_DATABASE_URL: "file:x.db" },
      "BACKUP_SCRATCH_DATABASE_URL must start with postgres:// or postgresql://",
    ],
  ])("refuses %o, naming the setting", (env, message) => {
    expect(() => readConfig({ ...base, ...env })).toThrow(message);
    // The data commands read the same settings the same way.
    expect(() => readOperationsConfig({ ...env })).toThrow(message);
  });
});
