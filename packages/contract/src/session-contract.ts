import { initContract } from "@ts-rest/core";
import { Session } from "./access-schemas.js";
import type { RouteMetadata } from "./route-metadata.js";
import { EmptyBody, ErrorBody } from "./schemas.js";
import { SessionToken } from "./staff-schemas.js";

const c = initContract();

/** Who is calling, and the browser session: the caller's own identity, a session token bought with the cookie, signing out, a key starting a browser session. Composed under `/admin/v1` by `adminContract`. */
export const sessionContract = c.router({
  getSession: {
    method: "GET",
    path: "/session",
    metadata: { credential: "bearer", scope: "read", tag: "session" } satisfies RouteMetadata,
    summary: "Who this key is",
    description: "The key the request was made with: its id, name, scope and expiry. Any valid key may ask.",
    responses: { 200: Session, 401: ErrorBody },
  },
  createSessionToken: {
    method: "POST",
    path: "/session/token",
    contentType: "application/json",
    body: EmptyBody,
    metadata: { credential: "cookie", tag: "session" } satisfies RouteMetadata,
    summary: "A token for this browser session",
    description:
      "With the session cookie and an `Origin` header equal to the admin app's origin: a bearer token valid 10 minutes, of the person's role now " +
      "(a key's session: the key's scope). No `Origin`, or another one: 403. No session, or an ended or expired one: 401. " +
      'At most TOKENS_PER_SESSION_PER_MIN tokens a minute per session (default 30; `RateLimit` fields `"session-tokens"`), then 429 with `Retry-After`.',
    responses: {
      201: SessionToken,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
      429: ErrorBody,
    },
  },
  signOut: {
    method: "POST",
    path: "/session/sign-out",
    contentType: "application/json",
    body: EmptyBody,
    metadata: { credential: "cookie", tag: "session" } satisfies RouteMetadata,
    summary: "Sign out",
    description:
      "Ends this browser session on the server, with its tokens, and clears the cookie. Without a live session: 401, and the cookie is cleared too; " +
      "that 401 spends the client address's AUTH_FAILURES_PER_MIN budget, and past it the answer is 429 with `Retry-After`.",
    responses: { 204: c.noBody(), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody },
  },
  startKeySession: {
    method: "POST",
    path: "/session/start",
    contentType: "application/json",
    body: EmptyBody,
    metadata: { credential: "key", scope: "read", tag: "session" } satisfies RouteMetadata,
    summary: "Start a browser session with a key",
    description:
      "With an API key as bearer (not a session token): sets the session cookie, so the browser keeps no secret. The session ends when the key is revoked or expires.",
    responses: { 201: Session, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody },
  },
});
