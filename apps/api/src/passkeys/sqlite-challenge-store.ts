import type Sqlite from "better-sqlite3";
import { sqliteTimestamp as timestamp } from "../data/sqlite-timestamp.js";
import type { ChallengePurpose, ChallengeStore } from "./challenge-store.js";

interface ChallengeRow {
  purpose: string;
  staffId: number | bigint | null;
  invitationDigest: string | null;
  expiresAt: string;
}

/** The WebAuthn challenges on SQLite: prepared statements on the API's connection. */
export function createSqliteChallengeStore(db: Sqlite.Database): ChallengeStore {
  let statements: ReturnType<typeof prepare> | undefined;
  const s = () => (statements ??= prepare(db));
  return {
    async save(challenge) {
      s().save(challenge);
    },
    async take(digest) {
      const row = s().take.get(digest);
      if (!row) return null;
      return {
        purpose: row.purpose as ChallengePurpose,
        staffId: row.staffId === null ? null : Number(row.staffId),
        invitationDigest: row.invitationDigest,
        expiresAt: new Date(row.expiresAt),
      };
    },
  };
}

function prepare(db: Sqlite.Database) {
  const sweep = db.prepare<[string]>(`DELETE FROM "PasskeyChallenge" WHERE "expiresAt" <= ?`);
  const insert = db.prepare<[string, string, number | null, string | null, string, string]>(
    `INSERT INTO "PasskeyChallenge" ("digest", "purpose", "staffId", "invitationDigest", "createdAt", "expiresAt") VALUES (?, ?, ?, ?, ?, ?)`,
  );
  return {
    save: db.transaction((c: Parameters<ChallengeStore["save"]>[0]) => {
      sweep.run(timestamp(c.createdAt));
      insert.run(c.digest, c.purpose, c.staffId, c.invitationDigest, timestamp(c.createdAt), timestamp(c.expiresAt));
    }),
    // One statement: SQLite runs it alone, so a challenge is deleted, and answered, once.
    take: db.prepare<[string], ChallengeRow>(
      `DELETE FROM "PasskeyChallenge" WHERE "digest" = ? RETURNING "purpose", "staffId", "invitationDigest", "expiresAt"`,
    ),
  };
}
