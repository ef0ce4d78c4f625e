import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { forgetApiKey, readStoredApiKey, storeApiKey } from "./api-key-storage.js";

export const KEY_REFUSED_MESSAGE = "The API refused your key. Sign in again with a valid API key.";

interface Session {
  signedIn: boolean;
  /** Why staff were sent back to sign-in, if they did not sign out themselves. */
  signOutReason: string | null;
  signIn: (apiKey: string) => void;
  signOut: () => void;
  /** The API answered 401 to a signed-in request: the key was revoked or rotated. */
  expire: () => void;
  /** The key requests carry, read when each is sent; null when signed out. */
  readApiKey: () => string | null;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [signedIn, setSignedIn] = useState(() => readStoredApiKey() !== null);
  const [signOutReason, setSignOutReason] = useState<string | null>(null);

  const signIn = useCallback((apiKey: string) => {
    storeApiKey(apiKey);
    setSignOutReason(null);
    setSignedIn(true);
  }, []);
  const signOut = useCallback(() => {
    forgetApiKey();
    setSignOutReason(null);
    setSignedIn(false);
  }, []);
  const expire = useCallback(() => {
    forgetApiKey();
    setSignOutReason(KEY_REFUSED_MESSAGE);
    setSignedIn(false);
  }, []);

  const session = useMemo(
    () => ({ signedIn, signOutReason, signIn, signOut, expire, readApiKey: readStoredApiKey }),
    [signedIn, signOutReason, signIn, signOut, expire],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession must be used inside <SessionProvider>");
  return session;
}
