import type { HTMLAttributes } from "react";
import styles from "./Panel.module.css";

/** The one surface the app puts content on. */
export function Panel({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return <section className={[styles.panel, className].filter(Boolean).join(" ")} {...props} />;
}
