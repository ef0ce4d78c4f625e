import { useQueryClient } from "@tanstack/react-query";
import { startTransition } from "react";
import { useNavigate } from "react-router-dom";
import { endSessionOnServer, useSession } from "./session.js";

/**
 * Signs out and goes to sign-in; `reason` is shown there when the visitor did not choose to leave.
 * The session ends on the server too (its cookie and tokens), not only in this tab.
 */
export function useSignOut(): (reason?: string) => void {
  const { signOut } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (reason) => {
    void endSessionOnServer();
    // One transition for both: the router navigates in a transition (v7_startTransition), so a sign-out
    // outside it would render first, on the page being left, and RequireSession would note that page
    // for whoever signs in next.
    startTransition(() => {
      navigate("/sign-in", { replace: true });
      signOut(reason);
    });
    // What was fetched in this session must not be shown to whoever signs in next.
    queryClient.clear();
  };
}
