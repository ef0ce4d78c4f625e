import { InvitationToken, type Invitation } from "@petstore/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { describeFailure, isNotFound } from "../api/api-errors.js";
import { cookieClient } from "../api/authorized-fetch.js";
import { When } from "../access/When.js";
import { Button, ButtonLink } from "../design-system/Button.js";
import { Notice } from "../design-system/Notice.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { createPasskey } from "../passkeys/passkey-ceremonies.js";
import { useSession } from "../session/session.js";
import formStyles from "../design-system/Form.module.css";
import signInStyles from "../session/SignInPage.module.css";
import styles from "./Staff.module.css";

export const INVITATION_UNUSABLE_MESSAGE = "This invitation has expired or was already used.";

type Lookup =
  | { state: "checking" }
  | { state: "unusable" }
  | { state: "failed"; message: string }
  | { state: "valid"; invitation: Invitation };

/**
 * `/invite#<token>`: the invitation link an admin handed over. The token is in the fragment, so no
 * server or proxy log sees it; the page reads it once, takes it out of the address bar (and history),
 * and keeps it in memory only. It is sent in a request body, never in a URL.
 */
export function InvitationPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { resume } = useSession();
  const [token, setToken] = useState(() => location.hash.replace(/^#/, ""));
  const [lookup, setLookup] = useState<Lookup>({ state: "checking" });
  const [creating, setCreating] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useDocumentTitle(lookup.state === "valid" ? `Welcome, ${lookup.invitation.name}` : "Welcome");

  // Out of the address bar at once: a screenshot, a shared screen or the history must not show it.
  // Another link pasted into this tab (a hash change, no reload) is read the same way.
  useEffect(() => {
    if (location.hash === "") return;
    setToken(location.hash.replace(/^#/, ""));
    navigate({ pathname: location.pathname, search: location.search, hash: "" }, { replace: true });
  }, [location.hash, location.pathname, location.search, navigate]);

  useEffect(() => {
    let current = true;
    setLookup({ state: "checking" });
    setProblem(null);
    const parsed = InvitationToken.safeParse(token);
    if (!parsed.success) {
      setLookup({ state: "unusable" });
      return;
    }
    void (async () => {
      try {
        const response = await cookieClient.staff.getInvitation({ body: { token: parsed.data } });
        if (!current) return;
        if (response.status === 200) setLookup({ state: "valid", invitation: response.body });
        else if (isNotFound(response)) setLookup({ state: "unusable" });
        else setLookup({ state: "failed", message: describeFailure(response) });
      } catch (error) {
        if (current) setLookup({ state: "failed", message: describeFailure(error) });
      }
    })();
    return () => {
      current = false;
    };
  }, [token]);

  const create = async () => {
    setProblem(null);
    setCreating(true);
    try {
      await createPasskey({ invitationToken: token });
      queryClient.clear();
      await resume();
      // The Overview, where every sign-in lands.
      navigate("/", { replace: true });
    } catch (error) {
      setProblem(error instanceof Error && !("status" in error) ? error.message : describeFailure(error));
      setCreating(false);
    }
  };

  return (
    <main className={styles.welcome}>
      <Panel className={styles.welcomeCard}>
        <p className={signInStyles.brand}>Petstore admin</p>
        {lookup.state === "valid" ? (
          <>
            <h1>Welcome, {lookup.invitation.name}</h1>
            <p className={formStyles.intro}>
              You are invited as {lookup.invitation.email} with the role {lookup.invitation.role}. Create a passkey to
              sign in: your device keeps it, unlocked by your fingerprint, face or screen lock, and there is no password
              to remember. This link works once, until <When at={lookup.invitation.expiresAt} />.
            </p>
            {problem && (
              <Notice tone="error" role="alert">
                <p>{problem}</p>
              </Notice>
            )}
            <div>
              <Button onClick={() => void create()} disabled={creating} aria-busy={creating || undefined}>
                Create a passkey
              </Button>
            </div>
          </>
        ) : (
          <>
            <h1>Welcome</h1>
            {lookup.state === "checking" && <p aria-busy="true">Checking your invitation…</p>}
            {lookup.state === "unusable" && (
              <Notice tone="error" role="alert">
                <p>{INVITATION_UNUSABLE_MESSAGE} Ask whoever invited you for a new link.</p>
              </Notice>
            )}
            {lookup.state === "failed" && (
              <Notice tone="error" role="alert">
                <p>The invitation could not be checked. {lookup.message}</p>
              </Notice>
            )}
            <div>
              <ButtonLink to="/sign-in">Go to sign-in</ButtonLink>
            </div>
          </>
        )}
      </Panel>
    </main>
  );
}
