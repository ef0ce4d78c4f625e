import { useEffect, useRef, useState } from "react";
import { Button } from "../design-system/Button.js";
import { Notice } from "../design-system/Notice.js";
import { describePetFields } from "./edit-pet-form.js";
import type { ChangeProblem } from "./use-pet-changes.js";
import styles from "./PetDetailPage.module.css";

/**
 * Why the last change to the pet was not saved. A conflict says that someone else changed the pet, what it
 * is now, and offers `Reload` to show that on the page; nothing was overwritten. The alert takes the focus,
 * so Tab leads straight to Reload.
 */
export function ChangeProblemNotice({
  problem,
  onReload,
  onDismiss,
}: {
  problem: ChangeProblem;
  onReload: () => Promise<unknown>;
  onDismiss: () => void;
}) {
  const alert = useRef<HTMLDivElement>(null);
  const [reloading, setReloading] = useState(false);

  useEffect(() => {
    alert.current?.focus();
  }, [problem]);

  const reload = async () => {
    if (reloading) return;
    setReloading(true);
    try {
      await onReload();
    } finally {
      setReloading(false);
    }
  };

  return (
    <div ref={alert} tabIndex={-1} className={styles.problem}>
      {problem.kind === "conflict" ? (
        <Notice
          tone="error"
          role="alert"
          action={
            <Button
              variant="secondary"
              onClick={() => void reload()}
              aria-disabled={reloading || undefined}
              aria-busy={reloading || undefined}
            >
              Reload
            </Button>
          }
        >
          <p>
            <strong>Someone else changed this pet while you had it open.</strong> Your change was not saved, and nothing
            was overwritten.
          </p>
          <p>
            {problem.now === null
              ? "It has been deleted since."
              : problem.now === undefined
                ? "What it is now could not be read: reload to see."
                : `It is now: ${describePetFields(problem.now)}.`}
          </p>
        </Notice>
      ) : (
        <Notice
          tone="error"
          role="alert"
          action={
            <Button variant="secondary" onClick={onDismiss}>
              Dismiss
            </Button>
          }
        >
          <p>
            <strong>The change was not saved.</strong> {problem.message}
          </p>
        </Notice>
      )}
    </div>
  );
}
