import { useEffect, useRef, type KeyboardEvent, type RefObject } from "react";

const FOCUSABLE = "button:not(:disabled), [href], input, select, textarea";

/**
 * What every modal dialog of the app does with the keyboard: the focus moves in (to `initial`), Tab and
 * Shift+Tab stay inside, Escape asks to close (`onEscape`), and on closing the focus goes back to what
 * opened it when that is still on the page. Spread `onKeyDown` on the dialog and give it `dialog`.
 */
export function useModalFocus(
  initial: RefObject<HTMLElement>,
  onEscape: () => void,
): { dialog: RefObject<HTMLDivElement>; onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void } {
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const opener = document.activeElement;
    initial.current?.focus();
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
    // Once, when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      onEscape();
      return;
    }
    if (event.key !== "Tab" || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
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
  return { dialog, onKeyDown };
}
