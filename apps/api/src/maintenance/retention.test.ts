import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../database.js";
import { withAdminClient } from "../test/postgres-admin.js";
import { execute, raw, rows, sql, type SqlRunner } from "../data/sql-work.js";
import { createTestApp, TEST_PROVIDERS, untilEventsVisible, type TestApp } from "../test/test-app.js";
import { jobLease } from "./job-lease.js";
import { purgeExpired, RETENTION_KINDS, type RetentionSettings } from "./retention.js";

const DAY = 86_400_000;
const NOW = new Date();
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const SETTINGS: RetentionSettings = {
  activityMs: 90 * DAY,
  deliveryMs: 30 * DAY,
  eventMs: 30 * DAY,
  idempotencyMs: DAY,
  deletedPetMs: 30 * DAY,
};

describe.each(TEST_PROVIDERS)("the retention purge on %s", (provider) => {
  let t: TestApp;
  let runner: SqlRunner;
  beforeEach(async () => {
    t = await createTestApp({}, provider);
    runner = t.database.sql;
  });
  afterEach(async () => {
    await t.close();
  });

  const insert = (statement: ReturnType<typeof sql>) => runner.transaction(() => execute(statement));
  const labels = (table: string, column: string) =>
    runner.read(function* () {
      const [from, value] = [raw(`"${table}"`), raw(`"${column}"`)];
      return (yield* rows<{ v: unknown }>(sql`SELECT ${value} AS "v" FROM ${from} ORDER BY ${value}`)).map((row) =>
        String(row.v),
      );
    });

  async function activity(label: string, at: Date) {
    await insert(sql`INSERT INTO "AuditEvent" ("at", "action", "actorKeyId", "actorName", "targetType", "targetId", "targetLabel")
      VALUES (${at}, 'pet.created', 'operator', 'Operator command', 'pet', 1, ${label})`);
  }

  it("purges each kind of row past its time and keeps the rest; the activity log still refuses any other delete or update", async () => {
    await activity("old", ago(95 * DAY));
    await activity("recent", ago(10 * DAY));
    for (const [label, status, age] of [
      ["old-done", "succeeded", 31],
      ["old-failed", "failed", 40],
      ["old-pending", "pending", 31],
      ["new-done", "succeeded", 1],
    ] as const) {
      await insert(sql`INSERT INTO "WebhookDelivery" ("webhookId", "eventId", "eventType", "data", "status", "createdAt", "nextAttemptAt")
        VALUES (1, ${label}, 'pet.created', '{}', ${status}, ${ago(age * DAY)}, ${ago(age * DAY)})`);
    }
    for (const [label, age] of [
      ["old-event", 31],
      ["new-event", 1],
    ] as const) {
      await insert(
        sql`INSERT INTO "Event" ("eventId", "type", "data", "createdAt") VALUES (${label}, 'pet.created', '{}', ${ago(age * DAY)})`,
      );
    }
    // The event log keeps what the webhook fan-out has not read yet: it has read both.
    await untilEventsVisible(t.database, 2);
    await t.database.webhooks.fanOut(200);
    for (const [key, age] of [
      ["old-key", 2 * DAY],
      ["new-key", 60_000],
    ] as const) {
      await insert(sql`INSERT INTO "IdempotencyRecord" ("scope", "key", "fingerprint", "status", "body", "location", "createdAt")
        VALUES ('key-1', ${key}, 'f', 201, '{}', '/v1/pets/1', ${ago(age)})`);
    }
    // Sessions: one past its absolute end, one signed out, one live; each with a token that has not expired.
    for (const [digest, expiresAt, endedAt] of [
      ["expired", ago(60_000), null],
      ["ended", ago(-DAY), ago(60_000)],
      ["live", ago(-DAY), null],
    ] as const) {
      await insert(
        sql`INSERT INTO "StaffSession" ("digest", "keyId", "createdAt", "lastActiveAt", "expiresAt", "endedAt") VALUES (${digest}, 'key-1', ${ago(DAY)}, ${ago(DAY)}, ${expiresAt}, ${endedAt})`,
      );
      await insert(sql`INSERT INTO "SessionToken" ("digest", "sessionId", "scope", "createdAt", "expiresAt")
        SELECT ${`token-of-${digest}`}, "id", 'read', ${ago(1000)}, ${ago(-60_000)} FROM "StaffSession" WHERE "digest" = ${digest}`);
    }
    await insert(sql`INSERT INTO "SessionToken" ("digest", "sessionId", "scope", "createdAt", "expiresAt")
      SELECT 'expired-token', "id", 'read', ${ago(120_000)}, ${ago(60_000)} FROM "StaffSession" WHERE "digest" = 'live'`);
    for (const [digest, expiresAt] of [
      ["old-challenge", ago(1000)],
      ["new-challenge", ago(-60_000)],
    ] as const) {
      await insert(
        sql`INSERT INTO "PasskeyChallenge" ("digest", "purpose", "createdAt", "expiresAt") VALUES (${digest}, 'sign-in', ${ago(60_000)}, ${expiresAt})`,
      );
    }
    for (const [digest, expiresAt] of [
      ["old-invitation", ago(1000)],
      ["new-invitation", ago(-DAY)],
    ] as const) {
      await insert(
        sql`INSERT INTO "Invitation" ("tokenDigest", "staffId", "createdAt", "expiresAt") VALUES (${digest}, 1, ${ago(DAY)}, ${expiresAt})`,
      );
    }
    for (const [id, beatAt] of [
      ["gone:1:a", ago(2 * DAY)],
      ["here:2:b", ago(1000)],
    ] as const) {
      await insert(
        sql`INSERT INTO "ApiHeartbeat" ("id", "host", "pid", "startedAt", "beatAt") VALUES (${id}, 'h', 1, ${beatAt}, ${beatAt})`,
      );
    }

    const purged: Array<[string, number]> = [];
    const counts = await purgeExpired(runner, SETTINGS, {
      now: () => NOW,
      onPurged: (kind, count) => purged.push([kind, count]),
    });
    expect(counts).toEqual({
      deletedPets: 0,
      activity: 1,
      deliveries: 2,
      events: 1,
      idempotency: 1,
      sessions: 2,
      tokens: 1,
      challenges: 1,
      invitations: 1,
      heartbeats: 1,
    });
    // Deleted pets' purge has its own test (pets/pet-changes.test.ts); a kind with nothing to purge reports nothing.
    expect(Object.fromEntries(purged)).toEqual(
      Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 0)),
    );

    expect(await labels("AuditEvent", "targetLabel")).toEqual(["recent"]);
    expect(await labels("WebhookDelivery", "eventId")).toEqual(["new-done", "old-pending"]);
    expect(await labels("Event", "eventId")).toEqual(["new-event"]);
    expect(await labels("IdempotencyRecord", "key")).toEqual(["new-key"]);
    expect(await labels("StaffSession", "digest")).toEqual(["live"]);
    expect(await labels("SessionToken", "digest")).toEqual(["token-of-live"]);
    expect(await labels("PasskeyChallenge", "digest")).toEqual(["new-challenge"]);
    expect(await labels("Invitation", "tokenDigest")).toEqual(["new-invitation"]);
    expect(await labels("ApiHeartbeat", "id")).toEqual(["here:2:b"]);

    // The triggers' floor: 90 days, whatever the setting. Younger rows refuse a delete, every row an update.
    await expect(insert(sql`DELETE FROM "AuditEvent"`)).rejects.toThrow(/append-only/);
    await activity("older", ago(200 * DAY));
    await expect(
      insert(sql`UPDATE "AuditEvent" SET "actorName" = 'someone else' WHERE "targetLabel" = 'older'`),
    ).rejects.toThrow(/append-only/);
    await expect(purgeExpired(runner, { ...SETTINGS, activityMs: 5 * DAY }, { now: () => NOW })).rejects.toThrow(
      /append-only/,
    );
    expect(await labels("AuditEvent", "targetLabel")).toEqual(["older", "recent"]);
    // A second run finds only what has aged since.
    expect(await purgeExpired(runner, SETTINGS, { now: () => NOW })).toEqual({
      ...Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, 0])),
      activity: 1,
    });
  });

  it("purges a large backlog in batches, each short, oldest first", async () => {
    // 3,000 rows 100 days old then 10 recent ones: the purge goes through in more than one batch and stops at the first recent row.
    const rowsOf = (count: number, at: Date, label: string) =>
      runner.transaction(() =>
        execute(sql`WITH RECURSIVE "n"("i") AS (SELECT 1 UNION ALL SELECT "i" + 1 FROM "n" WHERE "i" < ${count})
          INSERT INTO "AuditEvent" ("at", "action", "actorKeyId", "actorName", "targetType", "targetId", "targetLabel")
          SELECT ${at}, 'pet.created', 'operator', 'Operator command', 'pet', "i", ${label} FROM "n"`),
      );
    await rowsOf(3_000, ago(100 * DAY), "old");
    await rowsOf(10, ago(DAY), "recent");
    const batches: number[] = [];
    const counts = await purgeExpired(runner, SETTINGS, {
      now: () => NOW,
      onBatch: (kind, _ms, deleted) => kind === "activity" && batches.push(deleted),
    });
    expect(counts.activity).toBe(3_000);
    expect(batches.length).toBeGreaterThan(1);
    expect(Math.max(...batches)).toBeLessThanOrEqual(5_000);
    expect(await labels("AuditEvent", "targetLabel")).toEqual(Array(10).fill("recent"));
  });

  if (provider === "postgresql") {
    it("a role that may not delete from the activity log leaves it to the purge role, and purges the rest", async () => {
      await activity("old", ago(95 * DAY));
      await insert(
        sql`INSERT INTO "PasskeyChallenge" ("digest", "purpose", "createdAt", "expiresAt") VALUES ('old-challenge', 'sign-in', ${ago(60_000)}, ${ago(1000)})`,
      );
      const role = `petstore_api_${randomUUID().replaceAll("-", "").slice(0, 8)}`;
      await withAdminClient((client) => client.query(`CREATE ROLE ${role} LOGIN`));
      await runner.transaction(function* () {
        yield* execute(sql`${raw(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`)}`);
        yield* execute(sql`${raw(`REVOKE DELETE ON "AuditEvent" FROM ${role}`)}`);
      });
      const url = new URL(t.config.databaseUrl);
      url.username = role;
      url.password = "";
      const restricted = await openDatabase({ url: url.toString(), poolSize: 1 });
      try {
        expect(await purgeExpired(restricted.sql, SETTINGS, { now: () => NOW })).toMatchObject({
          activity: 0,
          challenges: 1,
        });
      } finally {
        await restricted.close();
        await runner.transaction(() => execute(sql`${raw(`DROP OWNED BY ${role}`)}`));
        await withAdminClient((client) => client.query(`DROP ROLE ${role}`));
      }
      expect(await labels("AuditEvent", "targetLabel")).toEqual(["old"]);
    });
  }

  it("a job's lease is held by one replica at a time and tells the others when it last ran", async () => {
    const lease = jobLease(runner, "retention");
    const at = NOW;
    expect(await lease.take({ holder: "a", leaseMs: 60_000, dueAfterMs: 0, at })).toBe(true);
    expect(await lease.take({ holder: "b", leaseMs: 60_000, dueAfterMs: 0, at })).toBe(false);
    await lease.release({ holder: "a", at, ran: true });
    expect(await lease.lastRunAt()).toEqual(at);
    // Not due for another day on any replica...
    expect(await lease.take({ holder: "b", leaseMs: 60_000, dueAfterMs: DAY, at: new Date(at.getTime() + 1000) })).toBe(
      false,
    );
    expect(await lease.take({ holder: "b", leaseMs: 60_000, dueAfterMs: DAY, at: new Date(at.getTime() + DAY) })).toBe(
      true,
    );
    // ...and a holder that died leaves a lease that expires.
    expect(
      await lease.take({ holder: "c", leaseMs: 60_000, dueAfterMs: 0, at: new Date(at.getTime() + DAY + 1000) }),
    ).toBe(false);
    expect(
      await lease.take({ holder: "c", leaseMs: 60_000, dueAfterMs: 0, at: new Date(at.getTime() + DAY + 61_000) }),
    ).toBe(true);
  });
});
