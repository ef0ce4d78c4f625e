import { useState, type ReactNode, type RefObject } from "react";
import { describeFailure } from "../api/api-errors.js";
import { ConfirmDialog } from "./ConfirmDialog.js";
import { Notice } from "./Notice.js";

/** What is read of the change a button runs: a TanStack mutation (the typed client's `useMutation` too). */
export interface ActionState {
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

/** The change failed: an alert, `failure` ("The key was not revoked.") then the reason. Nothing otherwise. */
export function ActionFailure({ action, failure }: { action: ActionState; failure: string }) {
  if (!action.isError) return null;
  return (
    <Notice tone="error" role="alert">
      <p>
        {failure} {describeFailure(action.error)}
      </p>
    </Notice>
  );
}

/**
 * Confirm, then act: a ConfirmDialog whose confirm button starts `action` (`onConfirm`), busy while it runs
 * (both buttons disabled, Escape ignored), with the failure in an alert under what will happen. The
 * action's own success handler says what happened (a status message) and closes the dialog.
 */
export function ConfirmAction({
  title,
  confirmLabel,
  action,
  failure,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  confirmLabel: string;
  action: ActionState;
  /** The alert's words when the action fails, before the reason. */
  failure: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** What will happen. */
  children: ReactNode;
}) {
  return (
    <ConfirmDialog
      title={title}
      confirmLabel={confirmLabel}
      busy={action.isPending}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      {children}
      <ActionFailure action={action} failure={failure} />
    </ConfirmDialog>
  );
}

/**
 * Which thing a confirmation is open for (a row's key, person, passkey), or null. `close(changed)` ends it;
 * after a change the row's button may be gone, so the focus goes to `afterChange` (the table or list)
 * instead of being lost. Without a change the dialog returns it to the button that opened it.
 */
export function useConfirming<Subject>(afterChange: RefObject<HTMLElement>) {
  const [subject, setSubject] = useState<Subject | null>(null);
  return {
    subject,
    ask: (what: Subject) => setSubject(what),
    close: (changed: boolean) => {
      setSubject(null);
      if (changed) afterChange.current?.focus();
    },
  };
}
