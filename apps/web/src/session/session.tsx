import type { Session } from "@petstore/contract";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { forgetApiKey, readStoredApiKey, readStoredSession, storeApiKey } from "./api-key-storage.js";

export const KEY_REFUSED_MESSAGE = "The API refused your key. Sign in again with a valid API key.";

interface SessionState {
  signedIn: boolean;
  /** Who the key is (getSession's answer): its name and scope; null when signed out. */
  signedInAs: Session | null;
  /** Why staff were sent back to sign-in, if they did not sign out themselves. */
  signOutReason: string | null;
  signIn: (apiKey: string, session: Session) => void;
  /** `reason`: said on the sign-in page, when the sign-out was not the visitor's own choice. */
  signOut: (reason?: string) => void;
  /** The API answered 401 to a signed-in request: the key was revoked or rotated. */
  expire: () => void;
  /** The key requests carry, read when each is sent; null when signed out. */
  readApiKey: () => string | null;
}

const SessionContext = createContext<SessionState | null>(null);

function readStoredSignIn(): Session | null {
  // A tab signed in before sessions were kept has a key but no session: it signs in again.
  return readStoredApiKey() !== null ? readStoredSession() : null;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [signedInAs, setSignedInAs] = useState<Session | null>(readStoredSignIn);
  const [signOutReason, setSignOutReason] = useState<string | null>(null);

  const signIn = useCallback((apiKey: string, session: Session) => {
    storeApiKey(apiKey, session);
    setSignOutReason(null);
    setSignedInAs(session);
  }, []);
  const signOut = useCallback((reason?: string) => {
    forgetApiKey();
    setSignOutReason(reason ?? null);
    setSignedInAs(null);
  }, []);
  const expire = useCallback(() => signOut(KEY_REFUSED_MESSAGE), [signOut]);

  const session = useMemo(
    () => ({ signedIn: signedInAs !== null, signedInAs, signOutReason, signIn, signOut, expire, readApiKey: readStoredApiKey }),
    [signedInAs, signOutReason, signIn, signOut, expire],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession must be used inside <SessionProvider>");
  return session;
}
