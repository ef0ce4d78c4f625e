import type { Account, Passkey } from "@petstore/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { accessQueryKeys, useAccessClient } from "../api/access-client.js";
import { describeFailure } from "../api/api-errors.js";
import { authorizedFetch } from "../api/authorized-fetch.js";
import { When } from "../access/When.js";
import { Button } from "../design-system/Button.js";
import { ConfirmAction, useConfirming } from "../design-system/ConfirmAction.js";
import { Notice } from "../design-system/Notice.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { isWaitingOutOutage, LoadFailure } from "../design-system/LoadFailure.js";
import { useShowStatusMessage } from "../design-system/status-message.js";
import { createPasskey } from "../passkeys/passkey-ceremonies.js";
import { useSession } from "../session/session.js";
import { useSignOut } from "../session/use-sign-out.js";
import table from "../design-system/DataTable.module.css";
import formStyles from "../design-system/Form.module.css";
import adminPage from "../design-system/AdminPage.module.css";
import styles from "./Staff.module.css";

export const ACCOUNT_PATH = "/account";
export const SIGNED_OUT_EVERYWHERE_MESSAGE = "You signed out everywhere, this browser included.";

/** `/account` (people): their passkeys and their browser sessions. */
export function AccountPage() {
  useDocumentTitle("Account");
  const access = useAccessClient();
  const accountQuery = access.account.getAccount.useQuery({ queryKey: accessQueryKeys.account });

  let content;
  if (accountQuery.isError || isWaitingOutOutage(accountQuery)) {
    content = <LoadFailure title="Your account could not be loaded." query={accountQuery} />;
  } else if (accountQuery.isPending) {
    content = <p aria-busy="true">Loading your account…</p>;
  } else {
    const account = accountQuery.data.body;
    content = (
      <>
        <Passkeys passkeys={account.passkeys} />
        <Sessions sessions={account.sessions} />
      </>
    );
  }
  return (
    <div className={adminPage.page}>
      <div>
        <h1>Account</h1>
        <p className={formStyles.intro}>
          {accountQuery.data
            ? `${accountQuery.data.body.staff.name} (${accountQuery.data.body.staff.email}), ${accountQuery.data.body.staff.role}. `
            : ""}
          Your passkeys, and where you are signed in.
        </p>
      </div>
      {content}
    </div>
  );
}

function Passkeys({ passkeys }: { passkeys: Passkey[] }) {
  const heading = useId();
  const { tokens } = useSession();
  const queryClient = useQueryClient();
  const showStatusMessage = useShowStatusMessage();
  const [adding, setAdding] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const removing = useConfirming<Passkey>(listRef);

  const add = async () => {
    setProblem(null);
    setAdding(true);
    try {
      await createPasskey({ authorizedFetch: authorizedFetch(tokens) });
      showStatusMessage("Added a passkey.", ACCOUNT_PATH);
      await queryClient.invalidateQueries({ queryKey: accessQueryKeys.account });
    } catch (error) {
      setProblem(
        `No passkey was added. ${error instanceof Error && !("status" in error) ? error.message : describeFailure(error)}`,
      );
    } finally {
      setAdding(false);
    }
  };

  const removable = passkeys.length > 1;
  return (
    <Panel aria-labelledby={heading}>
      <div className={adminPage.panelBody}>
        <h2 id={heading}>Passkeys</h2>
        {problem && (
          <Notice tone="error" role="alert">
            <p>{problem}</p>
          </Notice>
        )}
        {passkeys.length === 0 ? (
          <p>You have no passkey yet.</p>
        ) : (
          <ul ref={listRef} tabIndex={-1} className={styles.passkeys} aria-label="Your passkeys">
            {passkeys.map((passkey) => (
              <li key={passkey.id} className={styles.passkey}>
                <div>
                  <span className={styles.passkeyName}>{passkey.name}</span>
                  <span className={styles.muted}>
                    Added <When at={passkey.createdAt} />, last used <When at={passkey.lastUsedAt} never="never" />
                  </span>
                </div>
                {removable && (
                  <Button
                    variant="secondary"
                    aria-label={`Remove ${passkey.name}`}
                    onClick={() => removing.ask(passkey)}
                  >
                    Remove
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {!removable && passkeys.length === 1 && (
          <p className={styles.muted}>Your only passkey cannot be removed: add another first.</p>
        )}
        <div>
          <Button onClick={() => void add()} disabled={adding} aria-busy={adding || undefined}>
            Add a passkey
          </Button>
        </div>
      </div>
      {removing.subject && <RemovePasskeyDialog passkey={removing.subject} onClose={removing.close} />}
    </Panel>
  );
}

function RemovePasskeyDialog({ passkey, onClose }: { passkey: Passkey; onClose: (removed: boolean) => void }) {
  const access = useAccessClient();
  const queryClient = useQueryClient();
  const showStatusMessage = useShowStatusMessage();
  const remove = access.account.removePasskey.useMutation({
    onSuccess: async () => {
      showStatusMessage(`Removed the passkey ${passkey.name}.`, ACCOUNT_PATH);
      await queryClient.invalidateQueries({ queryKey: accessQueryKeys.account });
      onClose(true);
    },
  });
  return (
    <ConfirmAction
      title={`Remove ${passkey.name}?`}
      confirmLabel="Remove passkey"
      action={remove}
      failure="The passkey was not removed."
      onCancel={() => onClose(false)}
      onConfirm={() => remove.mutate({ params: { passkeyId: passkey.id } })}
    >
      <p>It can no longer sign you in. Your other passkeys still can.</p>
    </ConfirmAction>
  );
}

function Sessions({ sessions }: { sessions: Account["sessions"] }) {
  const heading = useId();
  const access = useAccessClient();
  const signOut = useSignOut();
  const everywhere = access.account.signOutEverywhere.useMutation({
    onSuccess: () => signOut(SIGNED_OUT_EVERYWHERE_MESSAGE),
  });
  return (
    <Panel aria-labelledby={heading}>
      <div className={adminPage.panelBody}>
        <h2 id={heading}>Sessions</h2>
        <div className={table.scroller}>
          <table className={table.table} aria-label="Sessions">
            <thead>
              <tr>
                <th scope="col">Browser</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last active</th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => (
                <tr key={session.id}>
                  <th scope="row">
                    {session.browser ?? "Unknown browser"}{" "}
                    {session.current && <span className={styles.muted}>This browser</span>}
                  </th>
                  <td>
                    <When at={session.signedInAt} />
                  </td>
                  <td>
                    <When at={session.lastActiveAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {everywhere.isError && (
          <Notice tone="error" role="alert">
            <p>You are still signed in. {describeFailure(everywhere.error)}</p>
          </Notice>
        )}
        <div>
          <Button
            variant="danger"
            onClick={() => everywhere.mutate({ body: {} })}
            disabled={everywhere.isPending}
            aria-busy={everywhere.isPending || undefined}
          >
            Sign out everywhere
          </Button>
        </div>
      </div>
    </Panel>
  );
}
