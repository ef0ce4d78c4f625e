import { NewStaffMember, SCOPES, StaffRole, type InvitedStaffMember, type StaffMember } from "@petstore/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { accessQueryKeys, useAccessClient } from "../api/access-client.js";
import { describeFailure, errorBodyOf } from "../api/api-errors.js";
import { keyStatus } from "../access/key-status.js";
import { When } from "../access/When.js";
import { Button } from "../design-system/Button.js";
import { ConfirmAction, useConfirming } from "../design-system/ConfirmAction.js";
import { SelectField, TextField } from "../design-system/FormFields.js";
import { Notice } from "../design-system/Notice.js";
import { Panel } from "../design-system/Panel.js";
import { ShownOnceSecret } from "../design-system/ShownOnceSecret.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { fieldErrorsFromApiIssues, fieldErrorsFromSchema } from "../forms/contract-field-errors.js";
import { FormError } from "../forms/FormError.js";
import { useContractForm, type ContractValidation } from "../forms/use-contract-form.js";
import { isWaitingOutOutage, LoadFailure } from "../design-system/LoadFailure.js";
import { useShowStatusMessage } from "../design-system/status-message.js";
import { useSession } from "../session/session.js";
import { useSignOut } from "../session/use-sign-out.js";
import table from "../design-system/DataTable.module.css";
import formStyles from "../design-system/Form.module.css";
import adminPage from "../design-system/AdminPage.module.css";
import styles from "./Staff.module.css";

export const STAFF_PATH = "/staff";
export const OWN_ACCESS_CHANGED_MESSAGE = "Your own access changed, which ended your sessions. Sign in again.";

const ROLE_HINT = "read: list and read pets. write: also add them. admin: also staff, keys, activity and webhooks.";

/** `/staff` (admins): the people who sign in as themselves, inviting one, changing a role, disabling. */
export function StaffPage() {
  useDocumentTitle("Staff");
  const [invited, setInvited] = useState<InvitedStaffMember | null>(null);
  const inviteHeading = useId();
  return (
    <div className={adminPage.page}>
      <div>
        <h1>Staff</h1>
        <p className={formStyles.intro}>
          People sign in as themselves, with a passkey or single sign-on, so the activity log names them and each can be
          cut off alone. Invite someone to give them a one-time link.
        </p>
      </div>
      <Panel aria-labelledby={inviteHeading}>
        <div className={adminPage.panelBody}>
          <h2 id={inviteHeading}>Invite someone</h2>
          <InviteForm onInvited={setInvited} />
          {invited && <InvitationLink invited={invited} />}
        </div>
      </Panel>
      <Panel aria-label="People">
        <StaffTable onInvited={setInvited} />
      </Panel>
    </div>
  );
}

type InviteField = "email" | "name" | "role";
const INVITE_LABELS: Record<InviteField, string> = { email: "Email", name: "Name", role: "Role" };
const INVITE_FIELDS = Object.keys(INVITE_LABELS) as InviteField[];
const EMPTY_INVITE: Record<InviteField, string> = { email: "", name: "", role: "read" };

/** Checks the invitation with the contract's own NewStaffMember. */
function validateInvite(values: Record<InviteField, string>): ContractValidation<InviteField, NewStaffMember> {
  const parsed = NewStaffMember.safeParse(values);
  return parsed.success
    ? { success: true, data: parsed.data }
    : { success: false, errors: fieldErrorsFromSchema(parsed.error.issues, INVITE_LABELS) };
}

/**
 * What follows an invitation sent (from the form, or New invitation link): the link shown, the status
 * message said, the people listed again.
 */
function useInvitationSent(onInvited: (invited: InvitedStaffMember) => void) {
  const queryClient = useQueryClient();
  const showStatusMessage = useShowStatusMessage();
  return async (invited: InvitedStaffMember, message: string) => {
    onInvited(invited);
    showStatusMessage(message, STAFF_PATH);
    await queryClient.invalidateQueries({ queryKey: accessQueryKeys.staff });
  };
}

/** Checked with the contract's NewStaffMember before anything is sent. */
function InviteForm({ onInvited }: { onInvited: (invited: InvitedStaffMember) => void }) {
  const access = useAccessClient();
  const invitationSent = useInvitationSent(onInvited);
  const { field, formError, handleSubmit, showFailure, reset } = useContractForm({
    initial: EMPTY_INVITE,
    fields: INVITE_FIELDS,
    validate: validateInvite,
    fieldErrorsFromIssues: (issues) => fieldErrorsFromApiIssues(issues, INVITE_LABELS),
  });
  const invite = access.staff.inviteStaff.useMutation({
    onSuccess: async ({ body }) => {
      reset();
      await invitationSent(body, `Invited ${body.staff.name}. Hand over the link below.`);
    },
    onError: (error) => showFailure(error, "Nobody was invited."),
  });

  return (
    <form
      className={`${formStyles.form} ${adminPage.narrow}`}
      onSubmit={handleSubmit((body) => invite.mutate({ body }))}
      noValidate
    >
      <FormError message={formError} />
      <TextField label="Email" {...field("email")} type="email" autoComplete="off" />
      <TextField
        label="Name"
        {...field("name")}
        autoComplete="off"
        hint="As the header and the activity log will show it."
      />
      <SelectField label="Role" {...field("role")} hint={ROLE_HINT}>
        {SCOPES.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </SelectField>
      <div>
        <Button type="submit" disabled={invite.isPending} aria-busy={invite.isPending || undefined}>
          Create invitation
        </Button>
      </div>
    </form>
  );
}

/** The invitation link, this once: the API keeps only its token's digest. */
function InvitationLink({ invited }: { invited: InvitedStaffMember }) {
  return (
    <ShownOnceSecret
      label="Invitation link"
      secret={invited.invitationUrl}
      hint="It will not be shown again, and it works once. Give it to them yourself, not in a public channel."
      copiedMessage={`Copied the invitation link for ${invited.staff.name}.`}
      noun="link"
      pathname={STAFF_PATH}
    >
      <p>
        <strong>
          {invited.staff.name} ({invited.staff.role})
        </strong>{" "}
        can create a passkey with this link until <When at={invited.expiresAt} />.
      </p>
    </ShownOnceSecret>
  );
}

export function staffStatus(member: StaffMember): "disabled" | "invited" | "active" {
  if (member.disabledAt !== null) return "disabled";
  return member.lastSignInAt === null ? "invited" : "active";
}

type Dialog = { kind: "role" | "disable"; member: StaffMember };

/**
 * Everyone, newest first, each with Change role and (unless disabled) Disable; a person who never signed in
 * also with New invitation link (the same invitation sent again: the API ends the earlier link).
 */
function StaffTable({ onInvited }: { onInvited: (invited: InvitedStaffMember) => void }) {
  const access = useAccessClient();
  const invitationSent = useInvitationSent(onInvited);
  const staffQuery = access.staff.listStaff.useQuery({ queryKey: accessQueryKeys.staff });
  const { signedInAs } = useSession();
  const [renewError, setRenewError] = useState<string | null>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const dialog = useConfirming<Dialog>(tableRef);
  const renew = access.staff.inviteStaff.useMutation({
    onSuccess: async ({ body }) => {
      setRenewError(null);
      await invitationSent(
        body,
        `New invitation link for ${body.staff.name}: hand it over; the earlier one no longer works.`,
      );
    },
    onError: (error) =>
      setRenewError(`No new link was made. ${errorBodyOf(error)?.issues?.[0]?.message ?? describeFailure(error)}`),
  });

  if (staffQuery.isError || isWaitingOutOutage(staffQuery)) {
    return <LoadFailure title="The staff could not be loaded." query={staffQuery} />;
  }
  if (staffQuery.isPending) return <p aria-busy="true">Loading staff…</p>;
  const members = staffQuery.data.body;
  if (members.length === 0) {
    return (
      <Notice tone="info">
        <p>Nobody has been invited yet.</p>
      </Notice>
    );
  }

  return (
    <>
      {renewError && (
        <Notice tone="error" role="alert">
          <p>{renewError}</p>
        </Notice>
      )}
      <div className={table.scroller}>
        <table ref={tableRef} tabIndex={-1} className={table.table} aria-label="Staff">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Last sign-in</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => {
              const status = staffStatus(member);
              return (
                <tr key={member.id}>
                  {/* Their own row says so: changing their own role or disabling themselves signs them out. */}
                  <th scope="row">
                    {member.name}
                    {member.id === signedInAs?.staffId && (
                      <>
                        {" "}
                        <span className={styles.you}>(you)</span>
                      </>
                    )}
                  </th>
                  <td>{member.email}</td>
                  <td>{member.role}</td>
                  <td>
                    <When at={member.lastSignInAt} />
                  </td>
                  <td>{status}</td>
                  <td>
                    {status !== "disabled" && (
                      <div className={styles.actions}>
                        <Button variant="secondary" onClick={() => dialog.ask({ kind: "role", member })}>
                          Change role
                        </Button>
                        {/* The visible word starts the name (WCAG 2.5.3); the person's name tells the rows' buttons apart. */}
                        <Button
                          variant="secondary"
                          aria-label={`Disable ${member.name}`}
                          onClick={() => dialog.ask({ kind: "disable", member })}
                        >
                          Disable
                        </Button>
                        {status === "invited" && (
                          <Button
                            variant="secondary"
                            aria-label={`New invitation link for ${member.name}`}
                            disabled={renew.isPending}
                            onClick={() =>
                              renew.mutate({ body: { email: member.email, name: member.name, role: member.role } })
                            }
                          >
                            New invitation link
                          </Button>
                        )}
                      </div>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {dialog.subject?.kind === "role" && <ChangeRoleDialog member={dialog.subject.member} onClose={dialog.close} />}
      {dialog.subject?.kind === "disable" && <DisableDialog member={dialog.subject.member} onClose={dialog.close} />}
    </>
  );
}

/** After a change that ends the person's sessions: when it is the admin's own, they are signed out. */
function useAfterAccessChange(member: StaffMember) {
  const queryClient = useQueryClient();
  const showStatusMessage = useShowStatusMessage();
  const signOut = useSignOut();
  const { signedInAs } = useSession();
  const isSelf = signedInAs?.staffId === member.id;
  return {
    isSelf,
    done: async (message: string) => {
      if (isSelf) {
        signOut(OWN_ACCESS_CHANGED_MESSAGE);
        return;
      }
      showStatusMessage(message, STAFF_PATH);
      await queryClient.invalidateQueries({ queryKey: accessQueryKeys.staff });
    },
  };
}

function ChangeRoleDialog({ member, onClose }: { member: StaffMember; onClose: (changed: boolean) => void }) {
  const access = useAccessClient();
  const [role, setRole] = useState<string>(member.role);
  const { isSelf, done } = useAfterAccessChange(member);
  // Lowering one's own role is asked twice: the second Change role goes on.
  const [askedAgain, setAskedAgain] = useState<string | null>(null);
  const change = access.staff.changeStaffRole.useMutation({
    onSuccess: async ({ body }) => {
      await done(`${body.name} is now ${body.role}.`);
      onClose(true);
    },
  });
  const confirm = () => {
    const parsed = StaffRole.safeParse(role);
    if (!parsed.success || parsed.data === member.role) {
      onClose(false);
      return;
    }
    if (isSelf && SCOPES.indexOf(parsed.data) < SCOPES.indexOf(member.role) && askedAgain !== parsed.data) {
      setAskedAgain(parsed.data);
      return;
    }
    change.mutate({ params: { staffId: member.id }, body: { role: parsed.data } });
  };
  return (
    <ConfirmAction
      title={`Change the role of ${member.name}?`}
      confirmLabel="Change role"
      action={change}
      failure="The role was not changed."
      onCancel={() => onClose(false)}
      onConfirm={confirm}
    >
      <p>
        Their sessions end, so the new role holds from their next sign-in.
        {isSelf && " It is your own role: you will be signed out."}
      </p>
      <SelectField label="Role" value={role} onChange={(event) => setRole(event.target.value)} hint={ROLE_HINT}>
        {SCOPES.map((scope) => (
          <option key={scope} value={scope}>
            {scope}
          </option>
        ))}
      </SelectField>
      {askedAgain !== null && askedAgain === role && (
        <Notice tone="error" role="alert">
          <p>
            You are lowering your own role from {member.role} to {askedAgain}: only another admin can give it back.
            Choose Change role again to go on.
          </p>
        </Notice>
      )}
    </ConfirmAction>
  );
}

/** What the status message says once the person is disabled, with their keys revoked or not. */
export function disabledMessage(name: string, activeKeys: number, revokeKeys: boolean): string {
  if (activeKeys === 0) return `Disabled ${name}.`;
  if (revokeKeys) return `Disabled ${name} and revoked their keys.`;
  return `Disabled ${name}. Their ${activeKeys === 1 ? "1 key still works" : `${activeKeys} keys still work`}.`;
}

/**
 * Confirms disabling a person; lists the keys they made that still work, with `Also revoke their keys`
 * checked (the API revokes them in the same transaction; unchecked, they keep working).
 */
function DisableDialog({ member, onClose }: { member: StaffMember; onClose: (changed: boolean) => void }) {
  const access = useAccessClient();
  const queryClient = useQueryClient();
  const { isSelf, done } = useAfterAccessChange(member);
  const [revokeKeys, setRevokeKeys] = useState(true);
  const revokeId = useId();
  const keysQuery = access.keys.listKeys.useQuery({
    queryKey: accessQueryKeys.keysBy(member.id),
    queryData: { query: { createdByStaffId: member.id } },
  });
  const now = Date.now();
  const activeKeys = keysQuery.data?.body.filter((key) => keyStatus(key, now) === "active") ?? [];
  const disable = access.staff.disableStaff.useMutation({
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accessQueryKeys.keys });
      await done(disabledMessage(member.name, activeKeys.length, revokeKeys));
      onClose(true);
    },
  });
  return (
    <ConfirmAction
      title={`Disable ${member.name}?`}
      confirmLabel="Disable"
      action={disable}
      failure={`${member.name} was not disabled.`}
      onCancel={() => onClose(false)}
      onConfirm={() => disable.mutate({ params: { staffId: member.id }, body: { revokeKeys } })}
    >
      <p>
        {member.name} ({member.email}) is signed out everywhere within 2 seconds and cannot sign in again. This cannot
        be undone here.
        {isSelf && " It is you: you will be signed out."}
      </p>
      {keysQuery.isPending && <p aria-busy="true">Loading the keys they made…</p>}
      {keysQuery.isError && (
        <Notice tone="error">
          <p>The keys they made could not be listed. {describeFailure(keysQuery.error)}</p>
        </Notice>
      )}
      {keysQuery.isSuccess &&
        (activeKeys.length === 0 ? (
          <p>{member.name} has made no key that is still active.</p>
        ) : (
          <ul className={styles.keyList} aria-label={`Active keys ${member.name} made`}>
            {activeKeys.map((key) => (
              <li key={key.id}>
                {key.name} ({key.scope}, <code>{key.prefix}</code>)
              </li>
            ))}
          </ul>
        ))}
      <label className={styles.checkbox} htmlFor={revokeId}>
        <input
          id={revokeId}
          type="checkbox"
          checked={revokeKeys}
          onChange={(event) => setRevokeKeys(event.target.checked)}
        />
        Also revoke their keys
      </label>
    </ConfirmAction>
  );
}
