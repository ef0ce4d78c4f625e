import type { Pet } from "@petstore/contract";
import { forwardRef, type Ref } from "react";
import { Button } from "../design-system/Button.js";
import { ONLY_ADMIN_RETURNS_SOLD, statusActionsFor, type StatusAction } from "./pet-patches.js";
import styles from "./PetDetailPage.module.css";

/**
 * The changes a pet's page offers: the status buttons that apply to its status, `Edit` and `Delete`. The
 * group takes the focus when a change made the button pressed go away.
 */
export const PetActions = forwardRef<
  HTMLDivElement,
  {
    pet: Pet;
    mayUpdate: boolean;
    mayDelete: boolean;
    mayReturnSold: boolean;
    busy: boolean;
    onStatus: (action: StatusAction) => void;
    onEdit: () => void;
    onDelete: () => void;
    /** `Edit`, which has the focus back when the form closes. */
    editRef?: Ref<HTMLButtonElement>;
  }
>(function PetActions({ pet, mayUpdate, mayDelete, mayReturnSold, busy, onStatus, onEdit, onDelete, editRef }, ref) {
  const statusActions = mayUpdate ? statusActionsFor(pet.status, mayReturnSold) : [];
  const soldForGood = mayUpdate && pet.status === "sold" && !mayReturnSold;
  // While a change is on its way the buttons stay focusable, and say they are busy instead of acting twice.
  const unlessBusy = (act: () => void) => () => {
    if (!busy) act();
  };
  return (
    <div ref={ref} tabIndex={-1} role="group" aria-label={`Change ${pet.name}`} className={styles.changeActions}>
      <div className={styles.actions}>
        {statusActions.map((action) => (
          <Button
            key={action.to}
            variant="secondary"
            aria-disabled={busy || undefined}
            onClick={unlessBusy(() => onStatus(action))}
          >
            {action.label}
          </Button>
        ))}
        {mayUpdate && (
          <Button ref={editRef} variant="secondary" aria-disabled={busy || undefined} onClick={unlessBusy(onEdit)}>
            Edit
          </Button>
        )}
        {mayDelete && (
          <Button variant="secondary" aria-disabled={busy || undefined} onClick={unlessBusy(onDelete)}>
            Delete
          </Button>
        )}
      </div>
      {soldForGood && <p className={styles.muted}>{ONLY_ADMIN_RETURNS_SOLD}</p>}
    </div>
  );
});
