import { forwardRef, type ButtonHTMLAttributes } from "react";
import { Link, type LinkProps } from "react-router-dom";
import styles from "./Button.module.css";

export type ButtonVariant = "primary" | "secondary" | "quiet" | "danger";

/**
 * The classes of a button of this variant, for an element that is neither `Button` nor `ButtonLink` (a plain
 * `<a>` to a full navigation). Not CSS `composes` from another module: postcss-modules copies that module's rules
 * into the composing one, a second copy with no source file (Vite warns about it at every start).
 */
export function buttonClassName(variant: ButtonVariant, extra?: string): string {
  return [styles.button, styles[variant], extra].filter(Boolean).join(" ");
}

export const Button = forwardRef<
  HTMLButtonElement,
  ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }
>(function Button({ variant = "primary", className, type = "button", ...props }, ref) {
  return <button ref={ref} type={type} className={buttonClassName(variant, className)} {...props} />;
});

/** A navigation that looks like a button: it stays a link for assistive technology. */
export function ButtonLink({ variant = "secondary", className, ...props }: LinkProps & { variant?: ButtonVariant }) {
  return <Link className={buttonClassName(variant, className)} {...props} />;
}
