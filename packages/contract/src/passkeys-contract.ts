import { initContract } from "@ts-rest/core";
import { Session } from "./access-schemas.js";
import type { RouteMetadata } from "./route-metadata.js";
import { EmptyBody, ErrorBody } from "./schemas.js";
import {
  InvitationRegistration,
  InvitationRegistrationOptionsRequest,
  Passkey,
  PasskeyAuthentication,
  PasskeyAuthenticationOptions,
  PasskeyRegistration,
  PasskeyRegistrationOptions,
} from "./staff-schemas.js";

const c = initContract();

/** The passkey ceremonies (WebAuthn): adding one to an account, accepting an invitation with one, signing in with one. Composed under `/admin/v1` by `adminContract`. */
export const passkeysContract = c.router({
  addPasskeyOptions: {
    method: "POST",
    path: "/account/passkeys/registration/options",
    contentType: "application/json",
    body: EmptyBody,
    metadata: { credential: "personToken", scope: "read", tag: "account" } satisfies RouteMetadata,
    summary: "Start adding a passkey",
    description: "WebAuthn registration options for one more passkey of the signed-in person.",
    responses: {
      200: PasskeyRegistrationOptions,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
  addPasskey: {
    method: "POST",
    path: "/account/passkeys/registration",
    contentType: "application/json",
    body: PasskeyRegistration,
    metadata: { credential: "personToken", scope: "read", tag: "account" } satisfies RouteMetadata,
    summary: "Add a passkey",
    description: "Verifies the authenticator's answer and stores the passkey (its public key, never a secret).",
    responses: {
      201: Passkey,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
    },
  },
  invitationPasskeyOptions: {
    method: "POST",
    path: "/passkeys/registration/options",
    contentType: "application/json",
    body: InvitationRegistrationOptionsRequest,
    metadata: { credential: "none", tag: "sign-in" } satisfies RouteMetadata,
    summary: "Start creating a passkey from an invitation",
    description:
      "WebAuthn registration options for the invited person; the invitation token is the credential. Each call spends one of the client address's " +
      "sign-in starts (AUTH_FAILURES_PER_MIN a minute, shared with passkey sign-ins and `/sso/start`): past them 429 with `Retry-After`, before a challenge is stored.",
    responses: { 200: PasskeyRegistrationOptions, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
  },
  acceptInvitation: {
    method: "POST",
    path: "/passkeys/registration",
    contentType: "application/json",
    body: InvitationRegistration,
    metadata: { credential: "none", tag: "sign-in" } satisfies RouteMetadata,
    summary: "Create a passkey from an invitation, and sign in",
    description:
      "Verifies the authenticator's answer, stores the passkey, uses up the invitation and signs the person in (sets the session cookie).",
    responses: { 201: Session, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
  },
  passkeySignInOptions: {
    method: "POST",
    path: "/passkeys/authentication/options",
    contentType: "application/json",
    body: EmptyBody,
    metadata: { credential: "none", tag: "sign-in" } satisfies RouteMetadata,
    summary: "Start signing in with a passkey",
    description:
      "WebAuthn authentication options (a one-time challenge; discoverable credentials, user verification required). " +
      "Each stores its challenge, so the sign-ins a client address may start are counted: `AUTH_FAILURES_PER_MIN` a minute " +
      '(a budget of their own, not the failures\'), then `429` with `Retry-After`; the `RateLimit` fields name it `"sign-in-starts"`.',
    responses: { 200: PasskeyAuthenticationOptions, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
  },
  passkeySignIn: {
    method: "POST",
    path: "/passkeys/authentication",
    contentType: "application/json",
    body: PasskeyAuthentication,
    metadata: { credential: "none", tag: "sign-in" } satisfies RouteMetadata,
    summary: "Sign in with a passkey",
    description:
      "Verifies the authenticator's answer against the challenge and the stored passkey, then signs the person in (sets the session cookie).",
    responses: { 200: Session, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
  },
});
