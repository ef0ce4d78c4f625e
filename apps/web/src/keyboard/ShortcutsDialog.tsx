import { useId, useRef } from "react";
import { Button } from "../design-system/Button.js";
import dialogStyles from "../design-system/ConfirmDialog.module.css";
import { useModalFocus } from "../design-system/modal-focus.js";
import { SHORTCUTS } from "./shortcut-settings.js";
import styles from "./KeyboardShortcuts.module.css";

/** The shortcuts, listed, with the switch that turns them off; Escape or Close closes it, the focus going back. */
export default function ShortcutsDialog({
  enabled,
  onEnabledChange,
  onClose,
}: {
  enabled: boolean;
  onEnabledChange: (on: boolean) => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const close = useRef<HTMLButtonElement>(null);
  const { dialog, onKeyDown: handleKeyDown } = useModalFocus(close, onClose);

  return (
    <div className={dialogStyles.backdrop}>
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={dialogStyles.dialog}
        onKeyDown={handleKeyDown}
      >
        <h2 id={titleId}>Keyboard shortcuts</h2>
        <dl className={styles.list}>
          {SHORTCUTS.map(({ key, does }) => (
            <div key={key} className={styles.row}>
              <dt>
                <kbd>{key}</kbd>
              </dt>
              <dd>{does}</dd>
            </div>
          ))}
        </dl>
        <p className={styles.note}>They do nothing while you type in a field.</p>
        <label className={styles.toggle}>
          <input type="checkbox" checked={enabled} onChange={(event) => onEnabledChange(event.target.checked)} />
          Use single-key shortcuts
        </label>
        <div className={dialogStyles.actions}>
          <Button ref={close} variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    </div>
  );
}
