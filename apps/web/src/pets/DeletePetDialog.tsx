import type { Pet } from "@petstore/contract";
import { useNavigate } from "react-router-dom";
import { ConfirmAction } from "../design-system/ConfirmAction.js";
import { useShowStatusMessage } from "../design-system/status-message.js";
import { usePetDelete, useRestorePet } from "./use-pet-changes.js";

/** Where the list of pets is; a deletion is announced there. */
const PETS_PATH = "/pets";

/**
 * `Delete pet`: asks first, then deletes the pet and goes to the list, where `Deleted Rex.` offers `Undo`
 * (restorePet). The pet can also be restored from Recently deleted until it is purged.
 */
export function DeletePetDialog({ pet, onCancel }: { pet: Pet; onCancel: () => void }) {
  const navigate = useNavigate();
  const showStatusMessage = useShowStatusMessage();
  const restorePet = useRestorePet();
  const deletion = usePetDelete();

  const confirm = () =>
    deletion.mutate(pet, {
      onSuccess: () => {
        showStatusMessage(`Deleted ${pet.name}.`, PETS_PATH, {
          action: {
            label: "Undo",
            run: async () => {
              const restored = await restorePet(pet.id);
              return { message: `Restored ${restored.name}.` };
            },
          },
        });
        navigate(PETS_PATH);
      },
    });

  return (
    <ConfirmAction
      title="Delete pet"
      confirmLabel="Delete"
      action={deletion}
      failure={`${pet.name} was not deleted.`}
      onConfirm={confirm}
      onCancel={onCancel}
    >
      <p>
        {pet.name} (id {pet.id}) leaves every list at once. It can be restored from Recently deleted for 30 days, then
        it is gone for good.
      </p>
    </ConfirmAction>
  );
}
