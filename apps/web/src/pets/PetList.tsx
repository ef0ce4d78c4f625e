import type { Pet } from "@petstore/contract";
import { lazy, Suspense, useId, useState } from "react";
import { ButtonLink } from "../design-system/Button.js";
import { Notice } from "../design-system/Notice.js";
import { isWaitingOutOutage, LoadFailure } from "../design-system/LoadFailure.js";
import { petQueryKeys, usePetstoreClient } from "../api/petstore-client.js";
import { useMayCall } from "../session/permissions.js";
import { nextPageCursor, previousPageCursor } from "../api/next-page-cursor.js";
import { useCategories } from "../categories/category-names.js";
import { LIST_PETS_PARAMETERS, toSearchParams, totalPetsText, type PetListView } from "./pet-list-view.js";
import pager from "../design-system/Pager.module.css";
import styles from "./PetList.module.css";
import { PetTable, type PetSelection } from "./PetTable.js";

// Fetched on the first selection, not with the app: most visits to the list change nothing.
const SelectedPetsToolbar = lazy(() =>
  import("./SelectedPetsToolbar.js").then(({ SelectedPetsToolbar }) => ({ default: SelectedPetsToolbar })),
);

function linkTo(view: PetListView): string {
  return `/pets?${toSearchParams(view).toString()}`;
}

/** What the empty list says: what its filters (name, status, category) leave out. */
export function noPetsSentence(view: PetListView, category: string | undefined): string {
  const inCategory = category !== undefined ? ` in ${category}` : "";
  if (view.name !== undefined)
    return `No ${view.status ? `${view.status} ` : ""}pets${inCategory} have a name with a word starting with “${view.name}”.`;
  if (view.status !== undefined) return `No pets${inCategory} are ${view.status}.`;
  if (category !== undefined) return `No pets are${inCategory}.`;
  return "There are no pets in the store yet.";
}

/**
 * One page of pets for `view`, with its loading, empty and error states, the number of pets its filters
 * match, and the ways to the pages before and after it. Sessions that may change pets check rows to change
 * them together (`Selected pets`); the selection is this page's: the caller gives each view a list of its own.
 */
export function PetList({ view, highlightedId }: { view: PetListView; highlightedId?: number | undefined }) {
  const petstore = usePetstoreClient();
  const mayCreatePets = useMayCall("createPet");
  const mayChangePets = useMayCall("updatePet");
  const { label: categoryLabel } = useCategories();
  const totalId = useId();
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const listQuery = petstore.pets.listPets.useQuery({
    queryKey: petQueryKeys.list(view),
    queryData: {
      query: {
        limit: view.limit,
        ...(view.status ? { status: view.status } : {}),
        ...(view.name !== undefined ? { name: view.name } : {}),
        ...(view.categoryId !== undefined ? { categoryId: view.categoryId } : {}),
        ...(view.after !== undefined ? { after: view.after } : {}),
        ...(view.before !== undefined ? { before: view.before } : {}),
        // The number of pets the filters match, in `X-Total-Count`.
        count: "true",
      },
    },
  });

  if (listQuery.isError || isWaitingOutOutage(listQuery)) {
    return <LoadFailure title="The pets could not be loaded." query={listQuery} />;
  }

  if (listQuery.isPending) {
    return (
      // Not a live region: the page keeps one, for status messages (design-system/status-message.tsx).
      <div className={styles.loading} aria-busy="true">
        <p className="visually-hidden">Loading pets…</p>
        {/* As tall as the page it stands for (the header and a row per pet of the page size): no jump when it comes. */}
        {Array.from({ length: view.limit + 1 }, (_, index) => (
          <div key={index} className={styles.skeletonRow} aria-hidden="true" />
        ))}
      </div>
    );
  }

  const { body: pets, headers } = listQuery.data;
  const firstPage = { ...view, after: undefined, before: undefined };
  const paged = view.after !== undefined || view.before !== undefined;
  if (pets.length === 0) {
    const filtered = view.status !== undefined || view.name !== undefined || view.categoryId !== undefined;
    return (
      <Notice
        tone="info"
        action={
          paged ? (
            <ButtonLink to={linkTo(firstPage)}>First page</ButtonLink>
          ) : filtered ? (
            <ButtonLink to={linkTo({ ...firstPage, status: undefined, name: undefined, categoryId: undefined })}>
              Show all pets
            </ButtonLink>
          ) : mayCreatePets ? (
            <ButtonLink to="/pets/new" variant="primary">
              Add the first pet
            </ButtonLink>
          ) : undefined
        }
      >
        <p>
          {view.before !== undefined
            ? "No pets come before these."
            : paged
              ? "No more pets."
              : noPetsSentence(view, view.categoryId !== undefined ? categoryLabel(view.categoryId) : undefined)}
        </p>
      </Notice>
    );
  }

  const link = headers.get("link");
  const nextAfter = nextPageCursor(link, LIST_PETS_PARAMETERS.after);
  const firstId = pets[0]?.id;
  const lastId = pets[pets.length - 1]?.id;
  // A page asked with `before` learns from the API whether more lie below it; one asked with `after` has
  // those it skipped below it: the page just below its first pet.
  const previousBefore =
    view.before !== undefined
      ? previousPageCursor(link, LIST_PETS_PARAMETERS.before)
      : view.after
        ? firstId
        : undefined;
  const total = totalPetsText(headers.get("x-total-count"));
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
      {total !== undefined && (
        <p id={totalId} className={styles.total}>
          {total}
        </p>
      )}
      <PetTable
        pets={pets}
        highlightedId={highlightedId}
        selection={selection}
        categoryLabel={categoryLabel}
        describedBy={total !== undefined ? totalId : undefined}
      />
      <div className={pager.pager}>
        <p className={pager.summary}>Showing {firstId === lastId ? `id ${firstId}` : `ids ${firstId}–${lastId}`}</p>
        <div className={pager.pagerLinks}>
          {previousBefore !== undefined && <ButtonLink to={linkTo(firstPage)}>First page</ButtonLink>}
          {previousBefore !== undefined && (
            <ButtonLink to={linkTo({ ...view, after: undefined, before: previousBefore })}>Previous page</ButtonLink>
          )}
          {nextAfter !== undefined && (
            <ButtonLink to={linkTo({ ...view, before: undefined, after: nextAfter })}>Next page</ButtonLink>
          )}
        </div>
      </div>
    </>
  );
}
