import type { WebhookWithSecret } from "@petstore/contract";
import { useEffect, useRef, type ReactNode } from "react";
import { Button } from "../design-system/Button.js";
import { TextField } from "../design-system/FormFields.js";
import { Notice } from "../design-system/Notice.js";
import { useShowStatusMessage } from "../layout/status-message.js";
import styles from "./Webhooks.module.css";

/**
 * An endpoint's signing secret, just created or rotated: the only time anyone
 * sees it (lists carry its first characters only). Focus moves to it, so it
 * can be copied at once. `pathname`: the page the Copy message belongs to.
 */
export function SigningSecret({ created, pathname, children }: { created: WebhookWithSecret; pathname: string; children: ReactNode }) {
  const field = useRef<HTMLInputElement>(null);
  const showStatusMessage = useShowStatusMessage();
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, [created]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      showStatusMessage(`Copied the signing secret for ${created.webhook.url}.`, pathname);
    } catch {
      showStatusMessage("The secret could not be copied here: select it and copy it yourself.", pathname, "info");
    }
  };

  return (
    <Notice tone="success">
      {children}
      <div className={styles.secret}>
        <TextField
          ref={field}
          label="Signing secret"
          readOnly
          value={created.secret}
          spellCheck={false}
          autoComplete="off"
          hint="It will not be shown again: copy it now and give it to the receiver, which checks each event's signature with it."
        />
        <Button variant="secondary" onClick={() => void copy()}>
          Copy
        </Button>
      </div>
    </Notice>
  );
}
