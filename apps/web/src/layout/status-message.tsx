import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useLocation } from "react-router-dom";
import { Notice } from "../design-system/Notice.js";
import styles from "./AppShell.module.css";

type StatusMessageTone = "success" | "info";

interface StatusMessage {
  message: string;
  /** `info` for news that is not all good, e.g. an import with rows left over. */
  tone: StatusMessageTone;
  /** The page the message belongs to: it goes away when staff move elsewhere. */
  pathname: string;
}

/** Shows `message` in the status region while `pathname` is the page shown. */
type ShowStatusMessage = (message: string, pathname: string, tone?: StatusMessageTone) => void;

const ShowStatusMessageContext = createContext<ShowStatusMessage | null>(null);

/**
 * A polite live region that outlives page changes, so "Added Rex" is still
 * announced after the form hands over to the list. The region is always in
 * the document: screen readers only announce changes to a region they know.
 */
export function StatusMessageRegion({ children }: { children: ReactNode }) {
  const [statusMessage, setStatusMessage] = useState<StatusMessage | null>(null);
  const { pathname } = useLocation();
  const previousPathname = useRef(pathname);

  // Cleared on leaving its page, not for being elsewhere: the message is set
  // just before the navigation to its page commits.
  useEffect(() => {
    if (statusMessage && previousPathname.current === statusMessage.pathname && pathname !== statusMessage.pathname) {
      setStatusMessage(null);
    }
    previousPathname.current = pathname;
  }, [statusMessage, pathname]);

  const showStatusMessage = useCallback<ShowStatusMessage>((message, onPathname, tone = "success") => {
    setStatusMessage({ message, pathname: onPathname, tone });
  }, []);
  const visible = statusMessage !== null && statusMessage.pathname === pathname ? statusMessage : null;

  return (
    <ShowStatusMessageContext.Provider value={showStatusMessage}>
      <div role="status" aria-live="polite" className={styles.statusMessage}>
        {visible && (
          <Notice tone={visible.tone}>
            <p>{visible.message}</p>
          </Notice>
        )}
      </div>
      {children}
    </ShowStatusMessageContext.Provider>
  );
}

/** The function that puts a message for one page into the app's status region. */
export function useShowStatusMessage(): ShowStatusMessage {
  const showStatusMessage = useContext(ShowStatusMessageContext);
  if (!showStatusMessage) throw new Error("useShowStatusMessage must be used inside <StatusMessageRegion>");
  return useMemo(() => showStatusMessage, [showStatusMessage]);
}
