import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import {
  DEFAULT_SIGN_IN_OPTIONS,
  fetchSignInOptions,
  SignInOptionsContext,
  type SignInOptions,
} from "./sign-in-options.js";

/**
 * The ways to sign in this server offers, asked once per page load; `override` (tests) skips the
 * request. Until the answer, and if it fails, the defaults.
 */
export function SignInOptionsProvider({
  override,
  children,
}: {
  override?: SignInOptions | undefined;
  children: ReactNode;
}) {
  const query = useQuery({
    queryKey: ["sign-in-options"],
    queryFn: fetchSignInOptions,
    enabled: override === undefined,
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
  return (
    <SignInOptionsContext.Provider value={override ?? query.data ?? DEFAULT_SIGN_IN_OPTIONS}>
      {children}
    </SignInOptionsContext.Provider>
  );
}
