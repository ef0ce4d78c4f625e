import { GetPetParams, type Pet } from "@petstore/contract";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useLocation, useParams } from "react-router-dom";
import { AddedBy } from "../access/AddedBy.js";
import { petQueryKeys, usePetstoreClient } from "../api/petstore-client.js";
import { useCategories } from "../categories/category-names.js";
import { ButtonLink } from "../design-system/Button.js";
import { Panel } from "../design-system/Panel.js";
import { isWaitingOutOutage, LoadFailure } from "../design-system/LoadFailure.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { NotFound } from "../design-system/NotFoundPage.js";
import { useShowStatusMessage } from "../design-system/status-message.js";
import { useMayCall, useMayReturnSoldPets } from "../session/permissions.js";
import { ChangeProblemNotice } from "./ChangeProblemNotice.js";
import { EditPetForm } from "./EditPetForm.js";
import { PetActions } from "./PetActions.js";
import { PetHistory } from "./PetHistory.js";
import { statusChangePatch, type StatusAction } from "./pet-patches.js";
import { usePetUpdate } from "./use-pet-changes.js";
import adminPage from "../design-system/AdminPage.module.css";
import styles from "./PetDetailPage.module.css";
import { StatusBadge } from "./StatusBadge.js";

// Fetched when Delete is pressed, not with the app.
const DeletePetDialog = lazy(() =>
  import("./DeletePetDialog.js").then(({ DeletePetDialog }) => ({ default: DeletePetDialog })),
);

/** `/pets/:petId`. An id the contract would refuse is not found without asking the API. */
export function PetDetailPage() {
  const { petId = "" } = useParams();
  const parsed = GetPetParams.safeParse({ petId });
  if (!parsed.success) {
    return <PetNotFound detail={`“${petId}” is not a pet id: ids are whole numbers from 1.`} />;
  }
  return <PetDetail petId={parsed.data.petId} />;
}

function PetNotFound({ detail }: { detail: string }) {
  useDocumentTitle("Pet not found");
  return <NotFound title="Pet not found" detail={detail} />;
}

/**
 * Reads the pet with listPets (`after` = id - 1, `limit` = 1) rather than the
 * deprecated getPet, which the spec schedules for removal: this page must
 * outlive it. The first pet after id - 1 is this pet, or it does not exist.
 */
function PetDetail({ petId }: { petId: number }) {
  const petstore = usePetstoreClient();
  const petQuery = petstore.pets.listPets.useQuery({
    queryKey: petQueryKeys.detail(petId),
    queryData: { query: { after: petId - 1, limit: 1 } },
  });
  const pet = petQuery.data?.body.find((candidate) => candidate.id === petId);
  useDocumentTitle(pet ? pet.name : `Pet ${petId}`);

  if (petQuery.isError || isWaitingOutOutage(petQuery)) {
    return <LoadFailure title={`Pet ${petId} could not be loaded.`} query={petQuery} />;
  }
  if (petQuery.isPending) {
    return <p aria-busy="true">Loading pet {petId}…</p>;
  }
  if (!pet) return <PetNotFound detail={`There is no pet with id ${petId}.`} />;
  return <PetCard pet={pet} />;
}

/**
 * The pet, and for sessions that may change pets its status buttons, `Edit` and `Delete`; then its
 * history. Every change tests what the page shows, so a change someone else made meanwhile is a conflict
 * to reload, never overwritten.
 */
function PetCard({ pet }: { pet: Pet }) {
  const mayReadActivity = useMayCall("listAuditEvents");
  const mayUpdate = useMayCall("updatePet");
  const mayDelete = useMayCall("deletePet");
  const mayReturnSold = useMayReturnSoldPets();
  const showStatusMessage = useShowStatusMessage();
  const { label: categoryLabel } = useCategories();
  const { pathname } = useLocation();
  const { update, pending, problem, dismissProblem, reload } = usePetUpdate(pet.id);
  const [editing, setEditing] = useState(false);
  // After Reload, a new form from the pet as read then: it shows (and tests) the pet as it is now.
  const [reloaded, setReloaded] = useState<{ version: number; pet: Pet } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const actions = useRef<HTMLDivElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const editButtonFocus = useRef(false);

  // Back from the form, the focus goes where the form was opened from.
  useEffect(() => {
    if (!editing && editButtonFocus.current) {
      editButtonFocus.current = false;
      editButton.current?.focus();
    }
  }, [editing]);

  const closeForm = () => {
    editButtonFocus.current = true;
    setEditing(false);
  };

  const changeStatus = (action: StatusAction) =>
    update({
      patch: statusChangePatch(pet.status, action.to),
      onSaved: (saved) => {
        showStatusMessage(action.done(saved.name), pathname);
        // The button pressed may be gone with the old status: the group keeps the focus.
        actions.current?.focus();
      },
    });

  return (
    <div className={`${adminPage.page} ${adminPage.narrow}`}>
      <h1>{pet.name}</h1>
      {problem && (
        <ChangeProblemNotice
          problem={problem}
          onDismiss={() => {
            dismissProblem();
            actions.current?.focus();
          }}
          onReload={async () => {
            const now = await reload();
            // A form starts again (and takes the focus); otherwise the changes' group has it, the alert gone.
            if (now) setReloaded((last) => ({ version: (last?.version ?? 0) + 1, pet: now }));
            actions.current?.focus();
          }}
        />
      )}
      <Panel>
        {editing ? (
          <EditPetForm
            key={reloaded?.version ?? 0}
            pet={reloaded?.pet ?? pet}
            mayReturnSold={mayReturnSold}
            saving={pending}
            onSave={(patch) =>
              update({
                patch,
                onSaved: (saved) => {
                  showStatusMessage(`Saved ${saved.name}.`, pathname);
                  closeForm();
                },
              })
            }
            onNothingChanged={() => {
              showStatusMessage("Nothing to save: no field was changed.", pathname, "info");
              closeForm();
            }}
            onCancel={closeForm}
          />
        ) : (
          <dl className={styles.details}>
            <dt>ID</dt>
            <dd>{pet.id}</dd>
            <dt>Name</dt>
            <dd>{pet.name}</dd>
            <dt>Category</dt>
            <dd>{categoryLabel(pet.categoryId)}</dd>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={pet.status} />
            </dd>
          </dl>
        )}
        {(mayUpdate || mayDelete) && !editing && (
          <PetActions
            ref={actions}
            editRef={editButton}
            pet={pet}
            mayUpdate={mayUpdate}
            mayDelete={mayDelete}
            mayReturnSold={mayReturnSold}
            busy={pending}
            onStatus={changeStatus}
            onEdit={() => {
              setReloaded(null);
              setEditing(true);
            }}
            onDelete={() => setDeleting(true)}
          />
        )}
        {mayReadActivity && <AddedBy petId={pet.id} className={styles.addedBy} />}
      </Panel>
      <PetHistory petId={pet.id} />
      <div>
        <ButtonLink to="/pets">Back to pets</ButtonLink>
      </div>
      {deleting && (
        <Suspense fallback={null}>
          <DeletePetDialog pet={pet} onCancel={() => setDeleting(false)} />
        </Suspense>
      )}
    </div>
  );
}
