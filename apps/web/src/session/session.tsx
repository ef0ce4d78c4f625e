import { adminContract, type Session } from "@petstore/contract";
import { initClient } from "@ts-rest/core";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { describeFailure } from "../api/api-errors.js";
import { API_ORIGIN } from "../api/api-origin.js";
import { authorizedFetcher, cookieClient } from "../api/authorized-fetch.js";
import { SESSION_ENDED_MESSAGE, type TokenManager } from "../api/token-manager.js";
import { browserSignedIn, forgetSignedIn } from "./signed-in-cookie.js";

/** Where the app stands: asking the API whether this browser has a session, signed in, or not. */
export type SessionStatus = "checking" | "signedIn" | "signedOut";

interface SessionState {
  status: SessionStatus;
  signedIn: boolean;
  /** Who is signed in (getSession's answer): a person or a key, its name and scope; null when signed out. */
  signedInAs: Session | null;
  /** Why the visitor was sent back to sign-in, if they did not sign out themselves. */
  signOutReason: string | null;
  /** They signed out themselves (`Sign out`, no reason): the sign-in page says it is done. */
  signedOutByChoice: boolean;
  /** A sign-in set the session cookie and said who it is (a key's `session/start`). */
  signIn: (session: Session) => void;
  /**
   * A sign-in set the session cookie (a passkey, an invitation): asks for a token and who it is.
   * Resolves with who signed in; rejects with what went wrong.
   */
  resume: () => Promise<Session>;
  /** Ends the session here: the token is dropped; the caller ends it on the server (use-sign-out.ts). */
  signOut: (reason?: string) => void;
  /** The API answered 401 to a signed-in request, and a new token was refused too. */
  expire: () => void;
  /** The session's bearer tokens, in memory only. */
  tokens: TokenManager;
}

const SessionContext = createContext<SessionState | null>(null);

/**
 * The browser's session: the HttpOnly cookie the API set at sign-in, which this code never sees, and
 * the short-lived token bought with it. Nothing is kept in `localStorage` or `sessionStorage`: on load
 * the app asks for a token when the browser has signed in (signed-in-cookie.ts), and a browser with a
 * session (another tab, a reload) is signed in at once.
 */
export function SessionProvider({
  tokens,
  initialSession,
  children,
}: {
  tokens: TokenManager;
  /** Who is signed in, when the caller knows already (tests): the app starts signed in and does not ask. */
  initialSession?: Session | undefined;
  children: ReactNode;
}) {
  // A browser that never signed in (or signed out) has nothing to check: sign-in at once, no request.
  const [firstStatus] = useState<SessionStatus>(() =>
    initialSession ? "signedIn" : browserSignedIn() ? "checking" : "signedOut",
  );
  const [status, setStatus] = useState<SessionStatus>(firstStatus);
  const [signedInAs, setSignedInAs] = useState<Session | null>(initialSession ?? null);
  const [signOutReason, setSignOutReason] = useState<string | null>(null);
  const [signedOutByChoice, setSignedOutByChoice] = useState(false);
  const [whoAmI] = useState(() =>
    initClient(adminContract, { baseUrl: API_ORIGIN, api: authorizedFetcher(tokens), validateResponse: true }),
  );

  const statusRef = useRef<SessionStatus>(firstStatus);
  const enter = useCallback((next: SessionStatus, who: Session | null, reason: string | null) => {
    statusRef.current = next;
    setStatus(next);
    setSignedInAs(who);
    setSignOutReason(reason);
    setSignedOutByChoice(false);
  }, []);

  const signIn = useCallback(
    (session: Session) => {
      // A new session: no token of an earlier one may be used.
      tokens.clear();
      enter("signedIn", session, null);
    },
    [tokens, enter],
  );

  const signOut = useCallback(
    (reason?: string) => {
      tokens.clear();
      enter("signedOut", null, reason ?? null);
      if (reason === undefined) setSignedOutByChoice(true);
    },
    [tokens, enter],
  );

  const expire = useCallback(() => {
    if (statusRef.current !== "signedIn") return;
    forgetSignedIn();
    // The token manager keeps refusing at once (no more token requests) until the next sign-in clears it.
    enter("signedOut", null, tokens.endedReason ?? SESSION_ENDED_MESSAGE);
  }, [tokens, enter]);

  const resume = useCallback(async () => {
    tokens.clear();
    const response = await whoAmI.session.getSession();
    if (response.status !== 200) throw response;
    enter("signedIn", response.body, null);
    return response.body;
  }, [tokens, whoAmI, enter]);

  // On load: a browser that already has a session (a reload, a new tab) needs no second sign-in.
  useEffect(() => {
    if (statusRef.current !== "checking") return;
    let current = true;
    void (async () => {
      try {
        const response = await whoAmI.session.getSession();
        if (!current || statusRef.current !== "checking") return;
        if (response.status === 200) enter("signedIn", response.body, null);
        // The session ended while the browser was away: the sign-in page, without an alert.
        else {
          if (response.status === 401) forgetSignedIn();
          enter("signedOut", null, response.status === 401 ? null : describeFailure(response));
        }
      } catch (error) {
        if (current && statusRef.current === "checking") enter("signedOut", null, describeFailure(error));
      }
    })();
    return () => {
      current = false;
    };
  }, [whoAmI, enter]);

  // The token endpoint said the session is over (signed out elsewhere, disabled): back to sign-in, with why.
  useEffect(() => tokens.onSessionEnded(() => expire()), [tokens, expire]);

  const session = useMemo(
    () => ({
      status,
      signedIn: status === "signedIn",
      signedInAs,
      signOutReason,
      signedOutByChoice,
      signIn,
      resume,
      signOut,
      expire,
      tokens,
    }),
    [status, signedInAs, signOutReason, signedOutByChoice, signIn, resume, signOut, expire, tokens],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession must be used inside <SessionProvider>");
  return session;
}

/** Ends the browser session on the server (the cookie's, with its tokens); a session already over is fine. */
export async function endSessionOnServer(): Promise<void> {
  try {
    await cookieClient.session.signOut({ body: {} });
  } catch {
    // Offline: the token is dropped anyway, and the session ends by its idle timeout.
  }
}
