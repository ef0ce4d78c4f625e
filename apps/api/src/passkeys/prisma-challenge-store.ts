import type { PrismaClient } from "../generated/pg/client.js";
import type { ChallengePurpose, ChallengeStore } from "./challenge-store.js";

/** The WebAuthn challenges on PostgreSQL, through Prisma's generated client. */
export function createPrismaChallengeStore(prisma: PrismaClient): ChallengeStore {
  return {
    async save(challenge) {
      await prisma.$transaction([
        prisma.passkeyChallenge.deleteMany({ where: { expiresAt: { lte: challenge.createdAt } } }),
        prisma.passkeyChallenge.create({
          data: {
            digest: challenge.digest,
            purpose: challenge.purpose,
            staffId: challenge.staffId === null ? null : BigInt(challenge.staffId),
            invitationDigest: challenge.invitationDigest,
            createdAt: challenge.createdAt,
            expiresAt: challenge.expiresAt,
          },
        }),
      ]);
    },
    async take(digest) {
      // One DELETE ... RETURNING: of two transactions deleting the same row, the second waits for the
      // first and then finds nothing, so a challenge is answered once.
      const [row] = await prisma.$queryRaw<Array<{ purpose: string; staffId: bigint | null; invitationDigest: string | null; expiresAt: Date }>>`
        DELETE FROM "PasskeyChallenge" WHERE "digest" = ${digest}
        RETURNING "purpose", "staffId", "invitationDigest", "expiresAt"`;
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
