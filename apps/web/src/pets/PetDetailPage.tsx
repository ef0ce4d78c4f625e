import { GetPetParams, type Pet } from "@petstore/contract";
import { useParams } from "react-router-dom";
import { AddedBy } from "../access/AddedBy.js";
import { petQueryKeys, usePetstoreClient } from "../api/petstore-client.js";
import { ButtonLink } from "../design-system/Button.js";
import { Panel } from "../design-system/Panel.js";
import { isWaitingOutOutage, LoadFailure } from "../layout/LoadFailure.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { NotFound } from "../layout/NotFoundPage.js";
import { useMayCall } from "../session/permissions.js";
import styles from "./PetDetailPage.module.css";
import { StatusBadge } from "./StatusBadge.js";

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
    return (
      <p aria-busy="true">
        Loading pet {petId}…
      </p>
    );
  }
  if (!pet) return <PetNotFound detail={`There is no pet with id ${petId}.`} />;
  return <PetCard pet={pet} />;
}

function PetCard({ pet }: { pet: Pet }) {
  const mayReadActivity = useMayCall("listAuditEvents");
  return (
    <div className={styles.page}>
      <h1>{pet.name}</h1>
      <Panel>
        <dl className={styles.details}>
          <dt>ID</dt>
          <dd>{pet.id}</dd>
          <dt>Name</dt>
          <dd>{pet.name}</dd>
          <dt>Category ID</dt>
          <dd>{pet.categoryId}</dd>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={pet.status} />
          </dd>
        </dl>
        {mayReadActivity && <AddedBy petId={pet.id} className={styles.addedBy} />}
      </Panel>
      <div>
        <ButtonLink to="/pets">Back to pets</ButtonLink>
      </div>
    </div>
  );
}
