import type { ApiKey } from "@petstore/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { accessQueryKeys, useAccessClient } from "../api/access-client.js";
import { Button } from "../design-system/Button.js";
import { ConfirmAction, useConfirming } from "../design-system/ConfirmAction.js";
import { Notice } from "../design-system/Notice.js";
import { isWaitingOutOutage, LoadFailure } from "../design-system/LoadFailure.js";
import { useShowStatusMessage } from "../design-system/status-message.js";
import { useSession } from "../session/session.js";
import { useSignOut } from "../session/use-sign-out.js";
import { keyStatus } from "./key-status.js";
import { KEYS_PATH } from "../navigation/app-paths.js";
import { When } from "./When.js";
import table from "../design-system/DataTable.module.css";
import styles from "./KeysPage.module.css";

export const SELF_REVOKED_MESSAGE = "You revoked the key you were signed in with. Sign in with another key.";

/**
 * The issued keys, newest first, each active one with its Revoke button; a key whose creator (a person,
 * from the staff list) is disabled says so, since disabling them may have left it working.
 */
export function KeyTable({ onRevoked }: { onRevoked?: (key: ApiKey) => void } = {}) {
  const access = useAccessClient();
  const keysQuery = access.keys.listKeys.useQuery({ queryKey: accessQueryKeys.keys });
  // Only to mark keys by creator: the table does not wait for it, nor fail with it.
  const staffQuery = access.staff.listStaff.useQuery({ queryKey: accessQueryKeys.staff });
  const tableRef = useRef<HTMLTableElement>(null);
  const revoking = useConfirming<ApiKey>(tableRef);

  if (keysQuery.isError || isWaitingOutOutage(keysQuery)) {
    return <LoadFailure title="The keys could not be loaded." query={keysQuery} />;
  }
  if (keysQuery.isPending) return <p aria-busy="true">Loading keys…</p>;
  const keys = keysQuery.data.body;
  if (keys.length === 0) {
    return (
      <Notice tone="info">
        <p>No keys have been issued yet.</p>
      </Notice>
    );
  }

  const now = Date.now();
  const disabledStaff = new Set(
    (staffQuery.data?.body ?? []).filter((member) => member.disabledAt !== null).map((member) => member.id),
  );
  return (
    <>
      <div className={table.scroller}>
        <table
          ref={tableRef}
          tabIndex={-1}
          className={table.table}
          aria-label="Keys"
          aria-describedby="deprecated-use-note"
        >
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Scope</th>
              <th scope="col">Prefix</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">Last use of the old pet lookup</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => {
              const status = keyStatus(key, now);
              return (
                <tr key={key.id}>
                  <th scope="row">{key.name}</th>
                  <td>{key.scope}</td>
                  <td>
                    <code className={styles.prefix}>{key.prefix}</code>
                  </td>
                  <td>
                    <When at={key.createdAt} />
                    <span className={styles.by}> by {key.createdBy ?? "the operator command"}</span>
                  </td>
                  <td>
                    <When at={key.expiresAt} never="Does not expire" />
                  </td>
                  <td>
                    <When at={key.lastUsedAt} />
                  </td>
                  <td>
                    <When at={key.lastDeprecatedUseAt} />
                  </td>
                  <td>
                    {status}
                    {key.createdByStaffId !== null && disabledStaff.has(key.createdByStaffId) && (
                      <span className={styles.flag}>Creator disabled</span>
                    )}
                  </td>
                  <td>
                    {status === "active" && (
                      // The visible word starts the name (WCAG 2.5.3); the key's name tells the rows' buttons apart.
                      <Button variant="secondary" aria-label={`Revoke ${key.name}`} onClick={() => revoking.ask(key)}>
                        Revoke
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p id="deprecated-use-note" className={styles.note}>
        Last use of the old pet lookup: when the key last read one pet at its old address, /v1/pets/&lt;id&gt;, which
        stops working on 5 December 2030. Move whoever still uses it to the pets list.
      </p>
      {revoking.subject && (
        <RevokeKeyDialog
          apiKey={revoking.subject}
          onClose={(revoked) => {
            if (revoked && revoking.subject) onRevoked?.(revoking.subject);
            // The row's button is gone with the key's status: the table keeps the focus.
            revoking.close(revoked);
          }}
        />
      )}
    </>
  );
}

/** Confirms a revoke; revoking the key this tab is signed in with signs out. */
function RevokeKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: (revoked: boolean) => void }) {
  const access = useAccessClient();
  const queryClient = useQueryClient();
  const showStatusMessage = useShowStatusMessage();
  const signOut = useSignOut();
  const { signedInAs } = useSession();
  const isOwnKey = signedInAs?.keyId === String(apiKey.id);
  const revokeKey = access.keys.revokeKey.useMutation({
    onSuccess: async () => {
      if (isOwnKey) {
        signOut(SELF_REVOKED_MESSAGE);
        return;
      }
      showStatusMessage(`Revoked the key ${apiKey.name}.`, KEYS_PATH);
      await queryClient.invalidateQueries({ queryKey: accessQueryKeys.all });
      onClose(true);
    },
  });

  return (
    <ConfirmAction
      title={`Revoke ${apiKey.name}?`}
      confirmLabel="Revoke key"
      action={revokeKey}
      failure="The key was not revoked."
      onCancel={() => onClose(false)}
      onConfirm={() => revokeKey.mutate({ params: { keyId: apiKey.id }, body: {} })}
    >
      <p>
        Whoever uses the key {apiKey.name} ({apiKey.prefix}…) is refused from now on. This cannot be undone.
        {isOwnKey && " It is the key you are signed in with: you will be signed out."}
      </p>
    </ConfirmAction>
  );
}
