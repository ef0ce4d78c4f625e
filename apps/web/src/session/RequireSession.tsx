import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router-dom";
import type { ReturnToState } from "./SignInPage.js";
import { useSession } from "./session.js";

/** Signed-in pages only; anyone else goes to sign-in and comes back after. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { status } = useSession();
  const location = useLocation();
  // On load the app first asks the API whether this browser has a session (another tab, a reload).
  if (status === "checking") return <p aria-busy="true">Loading…</p>;
  if (status === "signedOut") {
    const state: ReturnToState = { returnTo: `${location.pathname}${location.search}` };
    return <Navigate to="/sign-in" state={state} replace />;
  }
  return <>{children}</>;
}
