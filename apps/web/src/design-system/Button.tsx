import type { ButtonHTMLAttributes } from "react";
import { Link, type LinkProps } from "react-router-dom";
import styles from "./Button.module.css";

export type ButtonVariant = "primary" | "secondary" | "quiet";

function buttonClassName(variant: ButtonVariant, extra: string | undefined): string {
  return [styles.button, styles[variant], extra].filter(Boolean).join(" ");
}

export function Button({
  variant = "primary",
  className,
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button type={type} className={buttonClassName(variant, className)} {...props} />;
}

/** A navigation that looks like a button: it stays a link for assistive technology. */
export function ButtonLink({ variant = "secondary", className, ...props }: LinkProps & { variant?: ButtonVariant }) {
  return <Link className={buttonClassName(variant, className)} {...props} />;
}
