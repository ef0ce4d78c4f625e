import type { Pet } from "@petstore/contract";
import { useState } from "react";
import { Button } from "../design-system/Button.js";
import { ConfirmDialog } from "../design-system/ConfirmDialog.js";
import { ProgressBar } from "../design-system/ProgressBar.js";
import { Toolbar } from "../design-system/Toolbar.js";
import { useMayCall, useMayReturnSoldPets } from "../session/permissions.js";
import { bulkActionAsksFirst, bulkConfirmTitle, type BulkAction } from "./bulk-changes.js";
import { ONLY_ADMIN_RETURNS_SOLD, STATUS_ACTIONS } from "./pet-patches.js";
import { countOf } from "./pet-import.js";
import { useBulkPetChanges } from "./use-bulk-pet-changes.js";
import styles from "./PetList.module.css";

const DELETE: BulkAction = { kind: "delete" };
const STATUS_BULK_ACTIONS: BulkAction[] = STATUS_ACTIONS.map((action) => ({ kind: "status", action }));

/** "Rex, Bella and Milo", the first few names of a long list and how many more. */
export function namesOf(pets: readonly Pet[], shown = 5): string {
  const names = pets.slice(0, shown).map((pet) => pet.name);
  const more = pets.length - names.length;
  if (more > 0) return `${names.join(", ")} and ${countOf(more, "other", "others")}`;
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * `Selected pets`: what can be done to the pets checked on this page. `Mark sold` and `Delete` ask first.
 * While a run is under way the buttons wait (and say so) and a progress bar counts the pets done.
 */
export function SelectedPetsToolbar({ pets, onFinished }: { pets: readonly Pet[]; onFinished: () => void }) {
  const mayDelete = useMayCall("deletePet");
  const mayReturnSold = useMayReturnSoldPets();
  const { start, running, progress } = useBulkPetChanges({ onFinished });
  const [confirming, setConfirming] = useState<BulkAction | null>(null);

  const choose = (action: BulkAction) => {
    if (running) return;
    if (bulkActionAsksFirst(action)) setConfirming(action);
    else start({ action, pets });
  };

  return (
    <>
      <Toolbar label="Selected pets" className={styles.toolbar}>
        <span className={styles.selectedCount}>{countOf(pets.length, "pet", "pets")} selected</span>
        {STATUS_BULK_ACTIONS.map((action) => (
          <BulkButton key={label(action)} action={action} running={running} onChoose={choose} />
        ))}
        {mayDelete && <BulkButton action={DELETE} running={running} onChoose={choose} />}
        {progress && (
          <ProgressBar
            label="Changing the selected pets"
            value={progress.done}
            max={progress.total}
            valueText={`${progress.done} of ${progress.total} done`}
          />
        )}
      </Toolbar>
      {confirming && (
        <ConfirmDialog
          title={bulkConfirmTitle(confirming, pets.length)}
          confirmLabel={label(confirming)}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            setConfirming(null);
            start({ action: confirming, pets });
          }}
        >
          {confirming.kind === "delete" ? (
            <p>
              {namesOf(pets)} {pets.length === 1 ? "leaves" : "leave"} every list at once. Deleted pets can be restored
              from Recently deleted for 30 days.
            </p>
          ) : (
            <p>
              {namesOf(pets)} will be marked sold.{" "}
              {mayReturnSold
                ? "Only an admin can return a sold pet."
                : `${ONLY_ADMIN_RETURNS_SOLD} You will not be able to undo this.`}
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}

function label(action: BulkAction): string {
  return action.kind === "delete" ? "Delete" : action.action.label;
}

function BulkButton({
  action,
  running,
  onChoose,
}: {
  action: BulkAction;
  running: boolean;
  onChoose: (action: BulkAction) => void;
}) {
  return (
    <Button variant="secondary" aria-disabled={running || undefined} onClick={() => onChoose(action)}>
      {label(action)}
    </Button>
  );
}
