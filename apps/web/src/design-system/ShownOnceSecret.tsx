import { useEffect, useRef, type ReactNode } from "react";
import { useShowStatusMessage } from "./status-message.js";
import { Button } from "./Button.js";
import { TextField } from "./FormFields.js";
import { Notice } from "./Notice.js";
import styles from "./ShownOnceSecret.module.css";

export interface ShownOnceSecretProps {
  /** The field's accessible name (`New key`, `Signing secret`). */
  label: string;
  secret: string;
  /** Says it will not be shown again, and what to do with it. */
  hint: string;
  /** The status line after a copy, e.g. "Copied the key for Front desk." */
  copiedMessage: string;
  /** What it is, for the line that says it could not be copied ("key", "secret"). */
  noun: string;
  /** The page the status lines belong to. */
  pathname: string;
  /** Said above the field. */
  children: ReactNode;
}

/**
 * A secret the API shows once (a new key, a webhook's signing secret): a
 * read-only field with `Copy`. Focus moves to it, so it can be copied at once.
 */
export function ShownOnceSecret({
  label,
  secret,
  hint,
  copiedMessage,
  noun,
  pathname,
  children,
}: ShownOnceSecretProps) {
  const field = useRef<HTMLInputElement>(null);
  const showStatusMessage = useShowStatusMessage();
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, [secret]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      showStatusMessage(copiedMessage, pathname);
    } catch {
      showStatusMessage(`The ${noun} could not be copied here: select it and copy it yourself.`, pathname, "info");
    }
  };

  return (
    <Notice tone="success">
      {children}
      <div className={styles.secret}>
        <TextField
          ref={field}
          label={label}
          readOnly
          value={secret}
          spellCheck={false}
          autoComplete="off"
          hint={hint}
        />
        <Button variant="secondary" onClick={() => void copy()}>
          Copy
        </Button>
      </div>
    </Notice>
  );
}
