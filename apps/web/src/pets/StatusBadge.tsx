import type { PetStatus } from "@petstore/contract";
import styles from "./StatusBadge.module.css";

/** A pet's status as a coloured pill; the word is always shown, colour only repeats it. */
export function StatusBadge({ status }: { status: PetStatus | undefined }) {
  return <span className={`${styles.badge} ${styles[status ?? "none"]}`}>{status ?? "no status"}</span>;
}
