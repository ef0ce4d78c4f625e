import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useLocation } from "react-router-dom";
import { Notice } from "../design-system/Notice.js";
import styles from "./AppShell.module.css";

type ConfirmationTone = "success" | "info";

interface Confirmation {
  message: string;
  /** `info` for news that is not all good, e.g. an import with rows left over. */
  tone: ConfirmationTone;
  /** The page the message belongs to: it goes away when staff move elsewhere. */
  pathname: string;
}

type Confirm = (message: string, pathname: string, tone?: ConfirmationTone) => void;

const ConfirmContext = createContext<Confirm | null>(null);

/**
 * A polite live region that outlives page changes, so "Added Rex" is still
 * announced after the form hands over to the list. The region is always in
 * the document: screen readers only announce changes to a region they know.
 */
export function ConfirmationRegion({ children }: { children: ReactNode }) {
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const { pathname } = useLocation();
  const previousPathname = useRef(pathname);

  // Cleared on leaving its page, not for being elsewhere: the message is set
  // just before the navigation to its page commits.
  useEffect(() => {
    if (confirmation && previousPathname.current === confirmation.pathname && pathname !== confirmation.pathname) {
      setConfirmation(null);
    }
    previousPathname.current = pathname;
  }, [confirmation, pathname]);

  const confirm = useCallback<Confirm>((message, onPathname, tone = "success") => {
    setConfirmation({ message, pathname: onPathname, tone });
  }, []);
  const visible = confirmation !== null && confirmation.pathname === pathname ? confirmation : null;

  return (
    <ConfirmContext.Provider value={confirm}>
      <div role="status" aria-live="polite" className={styles.confirmation}>
        {visible && (
          <Notice tone={visible.tone}>
            <p>{visible.message}</p>
          </Notice>
        )}
      </div>
      {children}
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error("useConfirm must be used inside <ConfirmationRegion>");
  return useMemo(() => confirm, [confirm]);
}
