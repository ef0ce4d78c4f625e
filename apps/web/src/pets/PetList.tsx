import { ListPetsQuery, type Pet } from "@petstore/contract";
import { lazy, Suspense, useState } from "react";
import { ButtonLink } from "../design-system/Button.js";
import { Notice } from "../design-system/Notice.js";
import { isWaitingOutOutage, LoadFailure } from "../layout/LoadFailure.js";
import { petQueryKeys, usePetstoreClient } from "../api/petstore-client.js";
import { useMayCall } from "../session/permissions.js";
import { nextPageCursor } from "../api/next-page-cursor.js";
import { toSearchParams } from "./pet-list-view.js";
import pager from "../design-system/Pager.module.css";
import styles from "./PetList.module.css";
import { PetTable, type PetSelection } from "./PetTable.js";

const SKELETON_ROWS = 6;

// Fetched on the first selection, not with the app: most visits to the list change nothing.
const SelectedPetsToolbar = lazy(() => import("./SelectedPetsToolbar.js").then(({ SelectedPetsToolbar }) => ({ default: SelectedPetsToolbar })));

function linkTo(view: ListPetsQuery): string {
  return `/pets?${toSearchParams(view).toString()}`;
}

/**
 * One page of pets for `view`, with its loading, empty and error states and the way to the next page.
 * Sessions that may change pets check rows to change them together (`Selected pets`); the selection is
 * this page's: the caller gives each view a list of its own.
 */
export function PetList({ view, highlightedId }: { view: ListPetsQuery; highlightedId?: number | undefined }) {
  const petstore = usePetstoreClient();
  const mayCreatePets = useMayCall("createPet");
  const mayChangePets = useMayCall("updatePet");
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const listQuery = petstore.pets.listPets.useQuery({
    queryKey: petQueryKeys.list(view),
    queryData: {
      query: {
        limit: view.limit,
        ...(view.status ? { status: view.status } : {}),
        ...(view.name !== undefined ? { name: view.name } : {}),
        ...(view.after !== undefined ? { after: view.after } : {}),
      },
    },
  });

  if (listQuery.isError || isWaitingOutOutage(listQuery)) {
    return <LoadFailure title="The pets could not be loaded." query={listQuery} />;
  }

  if (listQuery.isPending) {
    return (
      // Not a live region: the page keeps one, for status messages (layout/status-message.tsx).
      <div className={styles.loading} aria-busy="true">
        <p className="visually-hidden">Loading pets…</p>
        {Array.from({ length: SKELETON_ROWS }, (_, index) => (
          <div key={index} className={styles.skeletonRow} aria-hidden="true" />
        ))}
      </div>
    );
  }

  const { body: pets, headers } = listQuery.data;
  const firstPage = { ...view, after: undefined };
  if (pets.length === 0) {
    const filtered = view.status !== undefined || view.name !== undefined;
    return (
      <Notice
        tone="info"
        action={
          view.after !== undefined ? (
            <ButtonLink to={linkTo(firstPage)}>First page</ButtonLink>
          ) : filtered ? (
            <ButtonLink to={linkTo({ ...firstPage, status: undefined, name: undefined })}>Show all pets</ButtonLink>
          ) : mayCreatePets ? (
            <ButtonLink to="/pets/new" variant="primary">
              Add the first pet
            </ButtonLink>
          ) : undefined
        }
      >
        <p>
          {view.after !== undefined
            ? "No more pets."
            : view.name !== undefined
              ? `No ${view.status ? `${view.status} ` : ""}pets have a name starting with “${view.name}”.`
              : filtered
                ? `No pets are ${view.status}.`
                : "There are no pets in the store yet."}
        </p>
      </Notice>
    );
  }

  const nextAfter = nextPageCursor(headers.get("link"), ListPetsQuery.shape.after);
  const firstId = pets[0]?.id;
  const lastId = pets[pets.length - 1]?.id;
  const selectedPets = pets.filter((pet) => selected.has(pet.id));
  const selection: PetSelection | undefined = mayChangePets
    ? {
        selected,
        onToggle: (pet: Pet, checked: boolean) =>
          setSelected((current) => {
            const next = new Set(current);
            if (checked) next.add(pet.id);
            else next.delete(pet.id);
            return next;
          }),
        onToggleAll: (checked: boolean) => setSelected(new Set(checked ? pets.map((pet) => pet.id) : [])),
      }
    : undefined;
  return (
    <>
      {selectedPets.length > 0 && (
        <Suspense fallback={null}>
          <SelectedPetsToolbar pets={selectedPets} onFinished={() => setSelected(new Set())} />
        </Suspense>
      )}
      <PetTable pets={pets} highlightedId={highlightedId} selection={selection} />
      <div className={pager.pager}>
        <p className={pager.summary}>
          {pets.length === 1 ? "1 pet" : `${pets.length} pets`}, ids {firstId}–{lastId}
        </p>
        <div className={pager.pagerLinks}>
          {view.after !== undefined && <ButtonLink to={linkTo(firstPage)}>First page</ButtonLink>}
          {nextAfter !== undefined && <ButtonLink to={linkTo({ ...view, after: nextAfter })}>Next page</ButtonLink>}
        </div>
      </div>
    </>
  );
}
