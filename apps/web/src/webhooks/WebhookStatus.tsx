import type { Webhook } from "@petstore/contract";
import styles from "./Webhooks.module.css";

/** Enabled or disabled and, when the API disabled it (a 410, or days of failures), why. */
export function WebhookStatus({ webhook }: { webhook: Pick<Webhook, "enabled" | "disabledReason"> }) {
  if (webhook.enabled) return <>Enabled</>;
  return (
    <>
      Disabled
      {webhook.disabledReason && <span className={styles.muted}>{webhook.disabledReason}</span>}
    </>
  );
}
