import { OPERATION_SCOPES, scopeCovers, type OperationName, type Scope } from "@petstore/contract";
import type { ReactNode } from "react";
import { ButtonLink } from "../design-system/Button.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { useSession } from "./session.js";

/**
 * Whether the signed-in key's scope covers `operation`, by the contract's own
 * table (OPERATION_SCOPES). The app only hides what the API would refuse with
 * 403; the API decides.
 */
export function useMayCall(operation: OperationName): boolean {
  const { signedInAs } = useSession();
  return signedInAs !== null && scopeCovers(signedInAs.scope, OPERATION_SCOPES[operation]);
}

/**
 * The scope that may move a pet out of `sold`: updatePet's own scope, write, covers every other move (the
 * contract says so in words, not in OPERATION_SCOPES).
 */
export const RETURNS_SOLD_PET_SCOPE = "admin" satisfies Scope;

/** Whether the session may return a sold pet (RETURNS_SOLD_PET_SCOPE); the API answers 403 to others. */
export function useMayReturnSoldPets(): boolean {
  const { signedInAs } = useSession();
  return signedInAs !== null && scopeCovers(signedInAs.scope, RETURNS_SOLD_PET_SCOPE);
}

/** Whether the one signed in is a person (a passkey or single sign-on), not a key. */
export function useIsPerson(): boolean {
  const { signedInAs } = useSession();
  return signedInAs !== null && signedInAs.staffId !== null;
}

export const READ_ONLY_MESSAGE = "This key can only read pets.";
export const PEOPLE_ONLY_MESSAGE =
  "This page is for people who sign in as themselves, with a passkey or single sign-on. A key has no passkeys or sessions of its own.";
export const ADMIN_ONLY_MESSAGE = "You need an admin key to see this page. Sign in with a key of scope admin.";

/** A page whose address anyone can open, shown only to keys that may call `operation`; others are told why not. */
export function RequireOperation({
  operation,
  title,
  refusal,
  children,
}: {
  operation: OperationName;
  /** The page's heading, kept when the page is refused, so staff know where they are. */
  title: string;
  refusal: string;
  children: ReactNode;
}) {
  if (useMayCall(operation)) return <>{children}</>;
  return <Refusal title={title} refusal={refusal} />;
}

/** A page for people only (their passkeys and sessions); a key is told why not. */
export function RequirePerson({ title, children }: { title: string; children: ReactNode }) {
  if (useIsPerson()) return <>{children}</>;
  return <Refusal title={title} refusal={PEOPLE_ONLY_MESSAGE} />;
}

function Refusal({ title, refusal }: { title: string; refusal: string }) {
  useDocumentTitle(title);
  return (
    <Panel>
      <h1>{title}</h1>
      <p>{refusal}</p>
      <ButtonLink to="/pets">Back to pets</ButtonLink>
    </Panel>
  );
}
