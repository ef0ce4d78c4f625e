import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useLocation } from "react-router-dom";
import { describeFailure } from "../api/api-errors.js";
import { Button } from "./Button.js";
import { Notice } from "./Notice.js";
import styles from "./StatusMessage.module.css";

type StatusMessageTone = "success" | "info";

/** What a message's own button leads to: the message that replaces it. */
export interface StatusMessageFollowUp {
  message: string;
  tone?: StatusMessageTone;
  details?: readonly string[];
}

/** A button in the message that undoes what it reports (`Undo`); its result replaces the message. */
export interface StatusMessageAction {
  label: string;
  run: () => Promise<StatusMessageFollowUp>;
}

export interface StatusMessageOptions {
  /** `info` for news that is not all good, e.g. an import with rows left over. Default `success`. */
  tone?: StatusMessageTone;
  /** Lines under the message, e.g. each pet a bulk change left alone and why. */
  details?: readonly string[] | undefined;
  action?: StatusMessageAction | undefined;
  /**
   * Move the focus to the message: for when the control that led to it has gone (a toolbar whose selection
   * ended), so keyboard users land on the news and its Undo rather than at the top of the page.
   */
  focus?: boolean;
}

interface StatusMessage extends StatusMessageOptions {
  /** Each message shown is a new notice: its action starts idle, and its focus request applies once. */
  id: number;
  message: string;
  /** The page the message belongs to: it goes away when staff move elsewhere. */
  pathname: string;
}

/** Shows `message` in the status region while `pathname` is the page shown. */
type ShowStatusMessage = (
  message: string,
  pathname: string,
  options?: StatusMessageTone | StatusMessageOptions,
) => void;

const ShowStatusMessageContext = createContext<ShowStatusMessage | null>(null);

let lastMessageId = 0;
function nextMessageId(): number {
  return ++lastMessageId;
}

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

  const showStatusMessage = useCallback<ShowStatusMessage>((message, onPathname, options = "success") => {
    const { tone = "success", ...rest } = typeof options === "string" ? { tone: options } : options;
    setStatusMessage({ id: nextMessageId(), message, pathname: onPathname, tone, ...rest });
  }, []);
  const visible = statusMessage !== null && statusMessage.pathname === pathname ? statusMessage : null;

  return (
    <ShowStatusMessageContext.Provider value={showStatusMessage}>
      <div role="status" aria-live="polite" className={styles.statusMessage}>
        {visible && <StatusMessageNotice key={visible.id} statusMessage={visible} onFollowUp={setStatusMessage} />}
      </div>
      {children}
    </ShowStatusMessageContext.Provider>
  );
}

function StatusMessageNotice({
  statusMessage,
  onFollowUp,
}: {
  statusMessage: StatusMessage;
  onFollowUp: (next: StatusMessage) => void;
}) {
  const { message, tone = "success", details = [], action, focus = false, pathname } = statusMessage;
  const [busy, setBusy] = useState(false);
  const notice = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (focus) notice.current?.focus();
  }, [focus]);

  const runAction = async () => {
    if (!action || busy) return;
    setBusy(true);
    let next: StatusMessageFollowUp;
    try {
      next = await action.run();
    } catch (failure) {
      next = { message: `${action.label} did not work. ${describeFailure(failure)}`, tone: "info" };
    }
    // The button is gone with this message: the focus goes to the one that replaces it.
    onFollowUp({ ...next, id: nextMessageId(), pathname, focus: true });
  };

  return (
    <div ref={notice} tabIndex={-1} className={styles.statusNotice}>
      <Notice
        tone={tone}
        action={
          action && (
            <Button
              variant="secondary"
              onClick={() => void runAction()}
              aria-disabled={busy || undefined}
              aria-busy={busy || undefined}
            >
              {action.label}
            </Button>
          )
        }
      >
        <p>{message}</p>
        {details.length > 0 && (
          <ul className={styles.statusDetails}>
            {details.map((detail) => (
              <li key={detail}>{detail}</li>
            ))}
          </ul>
        )}
      </Notice>
    </div>
  );
}

/** The function that puts a message for one page into the app's status region. */
export function useShowStatusMessage(): ShowStatusMessage {
  const showStatusMessage = useContext(ShowStatusMessageContext);
  if (!showStatusMessage) throw new Error("useShowStatusMessage must be used inside <StatusMessageRegion>");
  return useMemo(() => showStatusMessage, [showStatusMessage]);
}
