import { adminContract, type Passkey } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type { Request, Response } from "express";
import { randomBytes } from "node:crypto";
import { secretDigest } from "../access/bearer.js";
import { auditContext, caller } from "../access/caller.js";
import { rateLimited } from "../access/credential-failures.js";
import { RateLimitFields } from "../access/rate-limit-headers.js";
import { unlimited, type LimitName, type RequestLimiter } from "../access/rate-limit.js";
import { HttpError } from "../base/http-error.js";
import type { StaffSessions } from "../staff/sessions.js";
import { INVITATION_GONE } from "../staff/staff-router.js";
import { challengeDigest, type ChallengePurpose, type ChallengeStore, type TakenChallenge } from "./challenge-store.js";
import { defaultPasskeyName } from "./passkey-name.js";
import { relyingPartyOf, type RelyingParty } from "./relying-party.js";
import type { RouterOf } from "../base/contract-router.js";

/** How long a ceremony's challenge can be answered: the browser's own timeout, and a minute for the round trips. */
export const CEREMONY_TIMEOUT_MS = 4 * 60_000;
export const CHALLENGE_TTL_MS = CEREMONY_TIMEOUT_MS + 60_000;
/** The most passkeys one person may hold (getAccount lists at most 100). */
export const MAX_PASSKEYS_PER_PERSON = 20;
/** Ed25519, ES256, RS256: what authenticators make (no ML-DSA: the browsers do not yet). */
const ALGORITHMS = [-8, -7, -257];

const server = initServer();

export interface PasskeyHandlerDeps {
  sessions: StaffSessions;
  challenges: ChallengeStore;
  /** Config.adminOrigin: the relying party; undefined: passkeys are off. */
  adminOrigin: string | undefined;
  /**
   * Sign-ins started per client address (AbuseLimits.signInStarts): a passkey sign-in's options and an
   * invitation's each store a challenge before any credential is checked (a valid invitation token
   * stores one at every call), so without a budget one address could make the API write at its full
   * rate. Not given: nothing is counted.
   */
  signInStarts?: RequestLimiter;
  /** Called with "sign_in_starts" for each start refused (a metric's hook). */
  onRejected?: (limit: LimitName) => void;
}

const tokenDigest = (token: string) => secretDigest(token).toString("hex");
/** 32 random bytes: the options carry them base64url-encoded (43 characters). */
const newChallenge = (): Uint8Array<ArrayBuffer> => Uint8Array.from(randomBytes(32));

/**
 * The WebAuthn user handle of a person: stable (a second passkey of the same authenticator replaces
 * the first rather than sitting beside it), opaque, and no personal data (it is not their email).
 */
export const userHandleOf = (staffId: number): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(Buffer.from(`petstore-staff-${staffId}`, "utf8"));
const userHandleText = (staffId: number) => Buffer.from(userHandleOf(staffId)).toString("base64url");

/** The challenge a ceremony's answer signed, read from its clientDataJSON (checked again by the verifier); undefined when unreadable. */
export function challengeIn(response: { response?: unknown }): string | undefined {
  const inner = response.response;
  if (
    typeof inner !== "object" ||
    inner === null ||
    !("clientDataJSON" in inner) ||
    typeof inner.clientDataJSON !== "string"
  )
    return undefined;
  try {
    const clientData: unknown = JSON.parse(Buffer.from(inner.clientDataJSON, "base64url").toString("utf8"));
    if (typeof clientData !== "object" || clientData === null || !("challenge" in clientData)) return undefined;
    return typeof clientData.challenge === "string" && clientData.challenge.length <= 512
      ? clientData.challenge
      : undefined;
  } catch {
    return undefined;
  }
}

const AGAIN = "start again";
const COUNTER_BACKWARDS =
  "This passkey's signature counter went backwards, as a copied authenticator's does: it is refused. Sign in another way.";
const STALE = `This passkey request has expired or was already used: ${AGAIN}.`;

/**
 * The passkey ceremonies (docs/decisions/027-passkeys.md), with @simplewebauthn/server: the relying
 * party is ADMIN_ORIGIN's host and the expected origin ADMIN_ORIGIN; credentials are discoverable and
 * user verification is required; each challenge is one-time and lives CHALLENGE_TTL_MS, in the
 * database, so any API process can finish a ceremony another began.
 */
export function createPasskeysRouter({
  sessions,
  challenges,
  adminOrigin,
  signInStarts = unlimited,
  onRejected,
}: PasskeyHandlerDeps): RouterOf<typeof adminContract.passkeys> {
  const repository = sessions.repository;
  const startFields = new RateLimitFields("sign-in-starts", signInStarts);
  /**
   * Spends one start of the address's budget: within it the answer reports what is left (`RateLimit`),
   * past it the 429 (with Retry-After and the same fields).
   */
  const countSignInStart = async (req: Request, res: Response, what = "passkey sign-ins started"): Promise<void> => {
    if (signInStarts === unlimited) return;
    const count = await signInStarts.count(req.ip ?? "unknown");
    if (count.allowed) return startFields.set(res, count);
    onRejected?.("sign_in_starts");
    throw rateLimited(count.resetSeconds, `Too many ${what} from this address`).withHeaders(startFields.headers(count));
  };
  const rp = relyingPartyOf(adminOrigin);
  const relyingParty = (): RelyingParty => {
    if (!rp)
      throw new HttpError(
        404,
        "NOT_FOUND",
        "Passkeys are off on this server: it has no ADMIN_ORIGIN, the admin app's origin.",
      );
    return rp;
  };

  /** Stores the challenge the options carry (base64url), for its purpose, until CHALLENGE_TTL_MS from now. */
  const saveChallenge = async <T extends { challenge: string }>(
    options: T,
    purpose: ChallengePurpose,
    staffId: number | null,
    invitationDigest: string | null,
  ): Promise<T> => {
    const now = sessions.now();
    await challenges.save({
      digest: challengeDigest(options.challenge),
      purpose,
      staffId,
      invitationDigest,
      createdAt: new Date(now),
      expiresAt: new Date(now + CHALLENGE_TTL_MS),
    });
    return options;
  };

  /** Takes (uses up) the challenge the answer signed, when it is of this purpose and still valid; else undefined. */
  const takeChallenge = async (
    response: { response?: unknown },
    purpose: ChallengePurpose,
  ): Promise<{ challenge: string; taken: TakenChallenge } | undefined> => {
    const challenge = challengeIn(response);
    if (challenge === undefined) return undefined;
    const taken = await challenges.take(challengeDigest(challenge));
    if (!taken || taken.purpose !== purpose || taken.expiresAt.getTime() <= sessions.now()) return undefined;
    return { challenge, taken };
  };

  const registrationOptions = async (
    party: RelyingParty,
    staff: { id: number; email: string; name: string },
    purpose: "invitation" | "add",
    invitationDigest: string | null,
  ) => {
    const existing = await repository.passkeyCredentials(staff.id);
    if (existing.length >= MAX_PASSKEYS_PER_PERSON) {
      throw new HttpError(
        400,
        "VALIDATION_ERROR",
        `You have ${existing.length} passkeys, the most one person may hold: remove one first.`,
      );
    }
    const options = await generateRegistrationOptions({
      rpName: party.name,
      rpID: party.id,
      userName: staff.email,
      userDisplayName: staff.name,
      userID: userHandleOf(staff.id),
      challenge: newChallenge(),
      timeout: CEREMONY_TIMEOUT_MS,
      attestationType: "none",
      // Their passkeys already here: an authenticator holding one is not asked for a second.
      excludeCredentials: existing.map(({ credentialId, transports }) => ({ id: credentialId, transports })),
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
      supportedAlgorithmIDs: ALGORITHMS,
    });
    return saveChallenge(options, purpose, staff.id, invitationDigest);
  };

  /** Verifies a registration answer against its challenge; the new credential, or an error message. */
  const verifyRegistration = async (party: RelyingParty, response: RegistrationResponseJSON, challenge: string) => {
    try {
      const verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: party.origin,
        expectedRPID: party.id,
        requireUserVerification: true,
        supportedAlgorithmIDs: ALGORITHMS,
      });
      if (!verification.verified) return { refused: "the authenticator's answer could not be verified" };
      return { info: verification.registrationInfo };
    } catch (error) {
      return { refused: error instanceof Error ? error.message : String(error) };
    }
  };

  const newPasskeyOf = async (
    staffId: number,
    info: NonNullable<Awaited<ReturnType<typeof verifyRegistrationResponse>>["registrationInfo"]>,
    name: string | undefined,
    req: Request,
  ) => {
    const taken = (await repository.listPasskeys(staffId)).map((p) => p.name);
    return {
      staffId,
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      name: name ?? defaultPasskeyName(info.aaguid, req.headers["user-agent"], taken),
    };
  };

  const person = async (res: Response) => {
    const { staffId } = caller(res);
    const staff = staffId === null ? null : await repository.getStaff(staffId);
    if (!staff || staff.disabledAt !== null)
      throw new HttpError(401, "UNAUTHORIZED", "Sign in again: this account is disabled or no longer exists.");
    return staff;
  };

  const badRequest = (message: string) => new HttpError(400, "VALIDATION_ERROR", message);
  /** An options object as the contract's passthrough JSON object. */
  const json = (options: object): Record<string, unknown> => ({ ...options });

  return server.router(adminContract.passkeys, {
    invitationPasskeyOptions: async ({ body, req, res }) => {
      const party = relyingParty();
      // A start like a sign-in's, counted before the invitation is read: a valid token stores a challenge at every call.
      await countSignInStart(req, res, "passkeys started from invitations");
      const digest = tokenDigest(body.invitationToken);
      const found = await repository.findInvitation(digest, new Date(sessions.now()));
      if (!found) throw await sessions.failure(req, () => new HttpError(404, "NOT_FOUND", INVITATION_GONE));
      return { status: 200, body: json(await registrationOptions(party, found.staff, "invitation", digest)) };
    },

    acceptInvitation: async ({ body, req, res }) => {
      const party = relyingParty();
      const digest = tokenDigest(body.invitationToken);
      const refuse = async (message: string) => sessions.failure(req, () => badRequest(message));
      const response = body.response as unknown as RegistrationResponseJSON;
      const found = await takeChallenge(response, "invitation");
      if (!found || found.taken.invitationDigest !== digest || found.taken.staffId === null) throw await refuse(STALE);
      const verified = await verifyRegistration(party, response, found.challenge);
      if ("refused" in verified) throw await refuse(`Invalid request: response: ${verified.refused}.`);
      if (await repository.findPasskey(verified.info.credential.id))
        throw await refuse("This passkey is registered here already.");
      const staffId = found.taken.staffId;
      const invited = await repository.getStaff(staffId);
      if (!invited) throw await sessions.failure(req, () => new HttpError(404, "NOT_FOUND", INVITATION_GONE));
      const actor = { keyId: null, staffId, name: invited.name };
      const accepted = await repository.acceptInvitation(
        digest,
        await newPasskeyOf(staffId, verified.info, body.name, req),
        new Date(sessions.now()),
        {
          actor,
          requestId: req.id || null,
          clientAddress: req.ip ?? null,
        },
      );
      if (!accepted) throw await sessions.failure(req, () => new HttpError(404, "NOT_FOUND", INVITATION_GONE));
      return { status: 201, body: await sessions.startStaffSession(req, res, accepted, "passkey") };
    },

    passkeySignInOptions: async ({ req, res }) => {
      const party = relyingParty();
      await countSignInStart(req, res);
      const options = await generateAuthenticationOptions({
        rpID: party.id,
        // No allowCredentials: the authenticator offers its discoverable credentials, so no email is typed.
        challenge: newChallenge(),
        timeout: CEREMONY_TIMEOUT_MS,
        userVerification: "required",
      });
      return { status: 200, body: json(await saveChallenge(options, "sign-in", null, null)) };
    },

    passkeySignIn: async ({ body, req, res }) => {
      const party = relyingParty();
      const refuse = async (message: string) =>
        sessions.failure(req, () => new HttpError(401, "UNAUTHORIZED", message));
      const response = body.response as unknown as AuthenticationResponseJSON;
      const found = await takeChallenge(response, "sign-in");
      if (!found) throw await refuse(`This sign-in has expired or was already used: ${AGAIN}.`);
      const passkey =
        typeof response.id === "string" && response.id.length <= 1400
          ? await repository.findPasskey(response.id)
          : null;
      if (!passkey)
        throw await refuse("This passkey is not known here: it may have been removed. Sign in another way.");
      const userHandle = response.response?.userHandle;
      if (userHandle !== undefined && userHandle !== userHandleText(passkey.staffId))
        throw await refuse("This passkey does not belong to the account it names.");
      const staff = await repository.getStaff(passkey.staffId);
      if (!staff || staff.disabledAt !== null) throw await refuse("This account is disabled.");
      let newCounter: number;
      try {
        const verification = await verifyAuthenticationResponse({
          response,
          expectedChallenge: found.challenge,
          expectedOrigin: party.origin,
          expectedRPID: party.id,
          requireUserVerification: true,
          credential: {
            id: passkey.credentialId,
            publicKey: Uint8Array.from(Buffer.from(passkey.publicKey, "base64url")),
            counter: passkey.counter,
            transports: passkey.transports as AuthenticatorTransport[],
          },
        });
        if (!verification.verified) throw new Error("the signature does not verify");
        newCounter = verification.authenticationInfo.newCounter;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // A counter at or below the stored one: a copy of the authenticator's key may be in use.
        if (/counter/i.test(message)) throw await refuse(COUNTER_BACKWARDS);
        throw await refuse(`This passkey could not be verified: ${message}.`);
      }
      // Conditional: of two sign-ins answering with the same counter at once, the second is refused too.
      if (!(await repository.recordPasskeyUse(passkey.id, newCounter, new Date(sessions.now()))))
        throw await refuse(COUNTER_BACKWARDS);
      return { status: 200, body: await sessions.startStaffSession(req, res, staff, "passkey") };
    },

    addPasskeyOptions: async ({ res }) => {
      const party = relyingParty();
      const staff = await person(res);
      return { status: 200, body: json(await registrationOptions(party, staff, "add", null)) };
    },

    addPasskey: async ({ body, req, res }) => {
      const party = relyingParty();
      const staff = await person(res);
      const response = body.response as unknown as RegistrationResponseJSON;
      const found = await takeChallenge(response, "add");
      if (!found || found.taken.staffId !== staff.id) throw badRequest(STALE);
      const verified = await verifyRegistration(party, response, found.challenge);
      if ("refused" in verified) throw badRequest(`Invalid request: response: ${verified.refused}.`);
      if (await repository.findPasskey(verified.info.credential.id))
        throw badRequest("This passkey is registered here already.");
      const added = await repository.addPasskey(
        await newPasskeyOf(staff.id, verified.info, body.name, req),
        auditContext(req, res),
        staff.name,
      );
      const passkey: Passkey = {
        id: added.id,
        name: added.name,
        createdAt: added.createdAt.toISOString(),
        lastUsedAt: null,
      };
      return { status: 201, body: passkey };
    },
  });
}
