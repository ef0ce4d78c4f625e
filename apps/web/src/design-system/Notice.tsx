import type { ReactNode } from "react";
import styles from "./Notice.module.css";

type Tone = "error" | "success" | "info";

/**
 * A message in a coloured box. `role` is the caller's choice: `alert` for
 * something that went wrong now, `status` for news that can wait, none for a
 * static message.
 */
export function Notice({
  tone,
  role,
  children,
  action,
}: {
  tone: Tone;
  role?: "alert" | "status";
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className={`${styles.notice} ${styles[tone]}`} role={role}>
      <div className={styles.body}>{children}</div>
      {action}
    </div>
  );
}
