import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router-dom";
import type { ReturnToState } from "./SignInPage.js";
import { useSession } from "./session.js";

/** Signed-in pages only; anyone else goes to sign-in and comes back after. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { signedIn } = useSession();
  const location = useLocation();
  if (!signedIn) {
    const state: ReturnToState = { returnTo: `${location.pathname}${location.search}` };
    return <Navigate to="/sign-in" state={state} replace />;
  }
  return <>{children}</>;
}
