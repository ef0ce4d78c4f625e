import { createHash } from "node:crypto";

/** What a ceremony's challenge was handed out for. */
export type ChallengePurpose = "invitation" | "add" | "sign-in";

export interface NewChallenge {
  /** SHA-256 (hex) of the challenge as sent (base64url): the challenge itself is never stored. */
  digest: string;
  purpose: ChallengePurpose;
  /** The person it was handed to (an invitation's or the signed-in person); null for a sign-in. */
  staffId: number | null;
  /** SHA-256 (hex) of the invitation token it was asked with; null but for an invitation's. */
  invitationDigest: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export type TakenChallenge = Pick<NewChallenge, "purpose" | "staffId" | "invitationDigest" | "expiresAt">;

/**
 * The one-time WebAuthn challenges, in the database so that whichever API process a ceremony's second
 * request reaches can check it (docs/decisions/027-passkeys.md). Taking a challenge deletes it, in one
 * statement: of two requests carrying the same one, one gets it and the other nothing.
 */
export interface ChallengeStore {
  /** Stores a challenge; sweeps the expired ones. */
  save(challenge: NewChallenge): Promise<void>;
  /** Deletes the challenge with this digest and answers what it was for; null when there is none (never issued, or taken already). */
  take(digest: string): Promise<TakenChallenge | null>;
}

export const challengeDigest = (challenge: string): string =>
  createHash("sha256").update(challenge, "utf8").digest("hex");
