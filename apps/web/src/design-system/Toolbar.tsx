import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import styles from "./Toolbar.module.css";

function buttonsOf(toolbar: HTMLElement): HTMLButtonElement[] {
  return [...toolbar.querySelectorAll<HTMLButtonElement>("button:not(:disabled)")];
}

/**
 * A `toolbar` of buttons, as the ARIA pattern has it: one Tab stop, the arrow keys (and Home, End) move
 * between its buttons, and Tab comes back to the one last used. `children` may hold other content (a
 * count, a progress line) beside the buttons.
 */
export function Toolbar({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  const toolbar = useRef<HTMLDivElement>(null);
  const current = useRef(0);

  // After every render: exactly one button is in the Tab order, the current one (kept within range).
  useLayoutEffect(() => {
    const buttons = toolbar.current ? buttonsOf(toolbar.current) : [];
    if (buttons.length === 0) return;
    const focused = buttons.findIndex((button) => button === document.activeElement);
    if (focused >= 0) current.current = focused;
    current.current = Math.min(current.current, buttons.length - 1);
    buttons.forEach((button, index) => (button.tabIndex = index === current.current ? 0 : -1));
  });

  const moveTo = (buttons: HTMLButtonElement[], index: number) => {
    const next = buttons[index];
    if (!next) return;
    buttons.forEach((button) => (button.tabIndex = -1));
    next.tabIndex = 0;
    current.current = index;
    next.focus();
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!toolbar.current) return;
    const buttons = buttonsOf(toolbar.current);
    const at = buttons.findIndex((button) => button === document.activeElement);
    if (at < 0) return;
    const last = buttons.length - 1;
    const target =
      event.key === "ArrowRight"
        ? at === last
          ? 0
          : at + 1
        : event.key === "ArrowLeft"
          ? at === 0
            ? last
            : at - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : undefined;
    if (target === undefined) return;
    event.preventDefault();
    moveTo(buttons, target);
  };

  const handleFocus = () => {
    if (!toolbar.current) return;
    const buttons = buttonsOf(toolbar.current);
    const focused = buttons.findIndex((button) => button === document.activeElement);
    if (focused >= 0 && focused !== current.current) moveTo(buttons, focused);
  };

  return (
    <div
      ref={toolbar}
      role="toolbar"
      aria-label={label}
      aria-orientation="horizontal"
      className={[styles.toolbar, className].filter(Boolean).join(" ")}
      onKeyDown={handleKeyDown}
      onFocus={handleFocus}
    >
      {children}
    </div>
  );
}
