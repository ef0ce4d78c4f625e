import { useEffect, useId, useRef, type KeyboardEvent as ReactKeyboardEvent } from "react";
import { Button } from "../design-system/Button.js";
import dialogStyles from "../design-system/ConfirmDialog.module.css";
import { SHORTCUTS } from "./shortcut-settings.js";
import styles from "./KeyboardShortcuts.module.css";

/** The shortcuts, listed, with the switch that turns them off; Escape or Close closes it, the focus going back. */
export default function ShortcutsDialog({ enabled, onEnabledChange, onClose }: { enabled: boolean; onEnabledChange: (on: boolean) => void; onClose: () => void }) {
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const close = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const opener = document.activeElement;
    close.current?.focus();
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);

  const handleKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== "Tab" || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>("button, input")];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  return (
    <div className={dialogStyles.backdrop}>
      <div ref={dialog} role="dialog" aria-modal="true" aria-labelledby={titleId} className={dialogStyles.dialog} onKeyDown={handleKeyDown}>
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
