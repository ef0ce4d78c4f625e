import type { Session } from "@petstore/contract";
import { errorResponse, jsonResponse } from "./responses.js";

/** The n-th token the fake session issues: `pst_` and 43 characters, as the API's. */
export function fakeToken(n: number): string {
  return `pst_${"t".repeat(43 - String(n).length)}${n}`;
}

const TOKEN_TTL_MS = 10 * 60_000;

/** Operations that take no credential: they carry their own one-time token, challenge or `state`. */
const PUBLIC_PATHS = /^\/admin\/v1\/(invitations\/lookup|passkeys\/|sso\/)/;

export interface FakeSessionOptions {
  /** Who the browser is signed in as (its cookie's session); null: no session cookie. */
  signedInAs: Session | null;
  /** Keys `POST /admin/v1/session/start` accepts, and who each is. */
  keys?: Record<string, Session>;
}

/**
 * The API's session endpoints over one browser's cookie, as the server answers them: a token for the
 * cookie (`session/token`), who the token is (`session`), a key's sign-in (`session/start`) and
 * sign-out. Every other request must carry a live token, or is refused with 401 like the API does,
 * before the test's own handler sees it. `end(reason)` ends the session on the "server" (a disabled
 * person, a sign-out elsewhere).
 */
export function fakeSession({ signedInAs, keys = {} }: FakeSessionOptions) {
  let issued = 0;
  const state = {
    signedInAs,
    /** Tokens the "server" accepts, with who they are. */
    live: new Map<string, Session>(),
    endedReason: null as string | null,
    tokenRequests: 0,
    /** Token requests refused with 401 (no session, or it ended). */
    tokenRefusals: 0,
    signOuts: 0,
    starts: 0,
  };
  const refuse = (message = "The session token is not valid.") =>
    errorResponse(401, "UNAUTHORIZED", message, undefined, { "WWW-Authenticate": "Bearer" });

  const session = {
    state,
    end(reason = "Your session has ended. Sign in again.") {
      state.signedInAs = null;
      state.endedReason = reason;
      state.live.clear();
    },
    /** Refuses the tokens issued so far, as after a restart of the token store; the cookie's session goes on. */
    forgetTokens() {
      state.live.clear();
    },
    /** Answers a session request; null for any other, which the caller checks with `authorize`. */
    async answer(request: Request): Promise<Response | null> {
      const { pathname } = new URL(request.url);
      if (request.method === "POST" && pathname === "/admin/v1/session/token") {
        state.tokenRequests++;
        if (!state.signedInAs) {
          state.tokenRefusals++;
          return refuse(state.endedReason ?? "There is no session; sign in.");
        }
        issued++;
        const token = fakeToken(issued);
        state.live.set(token, state.signedInAs);
        return jsonResponse(201, { token, expiresAt: new Date(Date.now() + TOKEN_TTL_MS).toISOString() });
      }
      if (request.method === "POST" && pathname === "/admin/v1/session/start") {
        state.starts++;
        const key = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
        const who = key !== undefined ? keys[key] : undefined;
        if (!who) return refuse("Invalid API key.");
        state.signedInAs = who;
        state.endedReason = null;
        return jsonResponse(201, who);
      }
      if (request.method === "POST" && pathname === "/admin/v1/session/sign-out") {
        state.signOuts++;
        const had = state.signedInAs !== null;
        state.signedInAs = null;
        state.live.clear();
        return had ? new Response(null, { status: 204 }) : refuse();
      }
      if (request.method === "GET" && pathname === "/admin/v1/session") {
        const who = session.whoIs(request);
        return who ? jsonResponse(200, who) : refuse();
      }
      return null;
    },
    whoIs(request: Request): Session | null {
      const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
      return token !== undefined ? (state.live.get(token) ?? null) : null;
    },
    /** The API's 401 for a request without a live token; null when it may go on (or takes no token). */
    authorize(request: Request): Response | null {
      if (PUBLIC_PATHS.test(new URL(request.url).pathname)) return null;
      return session.whoIs(request) ? null : refuse();
    },
  };
  return session;
}

export type FakeSession = ReturnType<typeof fakeSession>;
