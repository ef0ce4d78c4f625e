import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Navigate, useLocation, useNavigate } from "react-router-dom";
import { describeFailure, isUnauthorized } from "../api/api-errors.js";
import { useAccessClient } from "../api/access-client.js";
import { bearer } from "../api/petstore-client.js";
import { Button } from "../design-system/Button.js";
import { TextField } from "../design-system/FormFields.js";
import { Notice } from "../design-system/Notice.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { useSession } from "./session.js";
import formStyles from "../design-system/Form.module.css";
import styles from "./SignInPage.module.css";

export const KEY_NOT_ACCEPTED_MESSAGE = "That API key was refused. Check it and try again.";

/** Where RequireSession found the visitor, so signing in takes them back there. */
export interface ReturnToState {
  returnTo: string;
}

function returnToOf(state: unknown): string {
  if (typeof state === "object" && state !== null && "returnTo" in state && typeof state.returnTo === "string") {
    return state.returnTo;
  }
  return "/pets";
}

export function SignInPage() {
  useDocumentTitle("Sign in");
  const { signedIn, signIn, signOutReason } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const access = useAccessClient();
  const [apiKey, setApiKey] = useState("");
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);

  if (signedIn && !checking) return <Navigate to={returnToOf(location.state)} replace />;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const candidate = apiKey.trim();
    if (candidate === "") {
      setFieldError("Enter your API key.");
      return;
    }
    setFieldError(undefined);
    setProblem(null);
    setChecking(true);
    try {
      // Any valid key may ask who it is; a key is only kept once the API accepts it.
      const response = await access.getSession.query({ extraHeaders: { Authorization: bearer(candidate) } });
      if (response.status === 200) {
        // Nothing fetched with an earlier key may show through.
        queryClient.clear();
        signIn(candidate, response.body);
        navigate(returnToOf(location.state), { replace: true });
        return;
      }
      setProblem(isUnauthorized(response) ? KEY_NOT_ACCEPTED_MESSAGE : describeFailure(response));
    } catch (error) {
      setProblem(describeFailure(error));
    } finally {
      setChecking(false);
    }
  };

  const message = problem ?? signOutReason;
  return (
    <main className={styles.page}>
      <Panel className={styles.card}>
        <div>
          <p className={styles.brand}>Petstore admin</p>
          <h1>Sign in</h1>
          <p className={formStyles.intro}>Staff sign in with the store's API key. It is kept for this tab only.</p>
        </div>
        {message && (
          <Notice tone="error" role="alert">
            <p>{message}</p>
          </Notice>
        )}
        <form className={formStyles.form} onSubmit={(event) => void handleSubmit(event)} noValidate>
          <TextField
            label="API key"
            name="apiKey"
            type="password"
            autoComplete="current-password"
            autoFocus
            spellCheck={false}
            value={apiKey}
            onChange={(event) => setApiKey(event.target.value)}
            error={fieldError}
          />
          <Button type="submit" disabled={checking}>
            Sign in
          </Button>
        </form>
      </Panel>
    </main>
  );
}
