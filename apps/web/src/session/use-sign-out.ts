import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router-dom";
import { useSession } from "./session.js";

/** Signs out and goes to sign-in; `reason` is shown there when the visitor did not choose to leave. */
export function useSignOut(): (reason?: string) => void {
  const { signOut } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (reason) => {
    signOut(reason);
    // What was fetched with this key must not be shown to whoever signs in next.
    queryClient.clear();
    navigate("/sign-in", { replace: true });
  };
}
