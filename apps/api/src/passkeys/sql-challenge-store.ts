import { execute, firstRow, sql, toDate, toNumberOrNull, type SqlRunner } from "../data/sql-work.js";
import type { ChallengePurpose, ChallengeStore } from "./challenge-store.js";

type ChallengeRow = { purpose: string; staffId: unknown; invitationDigest: string | null; expiresAt: unknown };

/** The WebAuthn challenges, written once for both providers (decision 040). */
export function createChallengeStore(runner: SqlRunner): ChallengeStore {
  return {
    async save({ digest, purpose, staffId, invitationDigest, createdAt, expiresAt }) {
      await runner.transaction(function* () {
        yield* execute(sql`DELETE FROM "PasskeyChallenge" WHERE "expiresAt" <= ${createdAt}`);
        yield* execute(sql`
          INSERT INTO "PasskeyChallenge" ("digest", "purpose", "staffId", "invitationDigest", "createdAt", "expiresAt")
          VALUES (${digest}, ${purpose}, ${staffId}, ${invitationDigest}, ${createdAt}, ${expiresAt})`);
      });
    },
    async take(digest) {
      // One DELETE ... RETURNING: of two takes of the same challenge, the second waits for the first (its row
      // lock on PostgreSQL, BEGIN IMMEDIATE on SQLite) and then finds nothing, so a challenge is answered once.
      const row = await runner.transaction(() =>
        firstRow<ChallengeRow>(
          sql`DELETE FROM "PasskeyChallenge" WHERE "digest" = ${digest} RETURNING "purpose", "staffId", "invitationDigest", "expiresAt"`,
        ),
      );
      if (!row) return null;
      const { purpose, staffId, invitationDigest, expiresAt } = row;
      return {
        purpose: purpose as ChallengePurpose,
        staffId: toNumberOrNull(staffId),
        invitationDigest,
        expiresAt: toDate(expiresAt),
      };
    },
  };
}
