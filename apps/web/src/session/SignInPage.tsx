import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Navigate, useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { describeFailure, isUnauthorized } from "../api/api-errors.js";
import { bearer } from "../api/api-origin.js";
import { cookieClient } from "../api/authorized-fetch.js";
import { Button, buttonClassName } from "../design-system/Button.js";
import { TextField } from "../design-system/FormFields.js";
import { Notice } from "../design-system/Notice.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { useSession } from "./session.js";
import { signInRefusalMessage, singleSignOnStartUrl, useSignInOptions } from "./sign-in-options.js";
import formStyles from "../design-system/Form.module.css";
import styles from "./SignInPage.module.css";

/**
 * The passkey ceremony's code (with @simplewebauthn/browser) stays out of the first load: most visits sign in
 * with a session already open. It is fetched when someone presses the button (a cached module after the first).
 */
const passkeyCeremonies = () => import("../passkeys/passkey-ceremonies.js");

export const KEY_NOT_ACCEPTED_MESSAGE = "That API key was refused. Check it and try again.";
/** What the sign-in page says after `Sign out`: it is done, and nothing went wrong. */
export const SIGNED_OUT_MESSAGE = "You have signed out.";

/** Where RequireSession found the visitor, so signing in takes them back there. */
export interface ReturnToState {
  returnTo: string;
}

function returnToOf(state: unknown): string {
  if (typeof state === "object" && state !== null && "returnTo" in state && typeof state.returnTo === "string") {
    return state.returnTo;
  }
  // The Overview.
  return "/";
}

function messageOf(error: unknown): string {
  return error instanceof Error && !("status" in error) ? error.message : describeFailure(error);
}

/**
 * `/sign-in`: a passkey, single sign-on when the API has it, and the API key (break-glass). Every way
 * in ends with the API setting the HttpOnly session cookie; the page keeps no secret.
 */
export function SignInPage() {
  useDocumentTitle("Sign in");
  const { status, signIn, resume, signOutReason, signedOutByChoice } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const { passkeys, singleSignOn } = useSignInOptions();
  const [apiKey, setApiKey] = useState("");
  const [busy, setBusy] = useState<"key" | "passkey" | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);

  if (status === "signedIn" && busy === null) return <Navigate to={returnToOf(location.state)} replace />;

  const signedIn = () => {
    // Nothing fetched in an earlier session may show through.
    queryClient.clear();
    navigate(returnToOf(location.state), { replace: true });
  };

  const handleKey = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const candidate = apiKey.trim();
    if (candidate === "") {
      setFieldError("Enter your API key.");
      return;
    }
    setFieldError(undefined);
    setProblem(null);
    setBusy("key");
    try {
      // The key goes to the API once, as a bearer; the API answers with the session cookie, and the key is forgotten.
      const response = await cookieClient.session.startKeySession({
        body: {},
        extraHeaders: { authorization: bearer(candidate) },
      });
      if (response.status === 201) {
        setApiKey("");
        signIn(response.body);
        signedIn();
        return;
      }
      setProblem(isUnauthorized(response) ? KEY_NOT_ACCEPTED_MESSAGE : describeFailure(response));
    } catch (error) {
      setProblem(describeFailure(error));
    } finally {
      setBusy(null);
    }
  };

  const handlePasskey = async () => {
    setProblem(null);
    setBusy("passkey");
    try {
      const { signInWithPasskey } = await passkeyCeremonies();
      await signInWithPasskey();
      await resume();
      signedIn();
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setBusy(null);
    }
  };

  const refusal = signInRefusalMessage(searchParams.get("error"));
  const message = problem ?? refusal ?? signOutReason;
  return (
    <main className={styles.page}>
      <Panel className={styles.card}>
        <div>
          <p className={styles.brand}>Petstore admin</p>
          <h1>Sign in</h1>
        </div>
        {message ? (
          <Notice tone="error" role="alert">
            <p>{message}</p>
          </Notice>
        ) : (
          signedOutByChoice && (
            <Notice tone="info" role="status">
              <p>{SIGNED_OUT_MESSAGE}</p>
            </Notice>
          )
        )}
        {status === "checking" ? (
          <p aria-busy="true">Checking whether this browser is signed in…</p>
        ) : (
          <>
            <div className={styles.methods}>
              {passkeys && (
                <Button
                  onClick={() => void handlePasskey()}
                  disabled={busy !== null}
                  aria-busy={busy === "passkey" || undefined}
                >
                  Sign in with a passkey
                </Button>
              )}
              {/* A full navigation to the identity provider, so a link; it looks like the passkey button beside it. */}
              {singleSignOn && (
                <a className={buttonClassName("secondary")} href={singleSignOnStartUrl()}>
                  Sign in with {singleSignOn.displayName}
                </a>
              )}
            </div>
            {/* Not a labelled region: its name would contain "API key" and be found by the field's label too. */}
            <section className={styles.keySection}>
              <h2>Sign in with an API key</h2>
              <p className={formStyles.intro}>For the store's configured key. The key is not kept in this browser.</p>
              <form className={formStyles.form} onSubmit={(event) => void handleKey(event)} noValidate>
                <TextField
                  label="API key"
                  name="apiKey"
                  type="password"
                  autoComplete="current-password"
                  spellCheck={false}
                  value={apiKey}
                  onChange={(event) => setApiKey(event.target.value)}
                  error={fieldError}
                />
                <Button
                  type="submit"
                  variant="secondary"
                  disabled={busy !== null}
                  aria-busy={busy === "key" || undefined}
                >
                  Sign in
                </Button>
              </form>
            </section>
          </>
        )}
      </Panel>
    </main>
  );
}
