import { useId, useRef, type ReactNode } from "react";
import { Button } from "./Button.js";
import styles from "./ConfirmDialog.module.css";
import { useModalFocus } from "./modal-focus.js";

/**
 * A modal `alertdialog` that asks before something that cannot be undone.
 * Focus moves into it (to Cancel, the safe choice), Tab stays inside it, and
 * Escape or Cancel closes it; on closing, focus goes back to what opened it
 * when that is still on the page.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busy = false,
  onConfirm,
  onCancel,
}: {
  title: string;
  /** What will happen, and any problem the last attempt met. */
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const bodyId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  const { dialog, onKeyDown: handleKeyDown } = useModalFocus(cancel, () => {
    if (!busy) onCancel();
  });

  return (
    <div className={styles.backdrop}>
      <div
        ref={dialog}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        className={styles.dialog}
        onKeyDown={handleKeyDown}
      >
        <h2 id={titleId}>{title}</h2>
        <div id={bodyId} className={styles.body}>
          {children}
        </div>
        <div className={styles.actions}>
          <Button ref={cancel} variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy} aria-busy={busy || undefined}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </div>
  );
}
