import { PageCursor, type DeletedPet } from "@petstore/contract";
import { useMutation } from "@tanstack/react-query";
import { useId, useRef } from "react";
import { useSearchParams } from "react-router-dom";
import { When } from "../access/When.js";
import { nextPageCursor } from "../api/next-page-cursor.js";
import { petQueryKeys, usePetstoreClient } from "../api/petstore-client.js";
import { Button, ButtonLink } from "../design-system/Button.js";
import { ActionFailure } from "../design-system/ConfirmAction.js";
import { Notice } from "../design-system/Notice.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { isWaitingOutOutage, LoadFailure } from "../design-system/LoadFailure.js";
import { useShowStatusMessage } from "../design-system/status-message.js";
import { useRestorePet } from "./use-pet-changes.js";
import table from "../design-system/DataTable.module.css";
import formStyles from "../design-system/Form.module.css";
import pager from "../design-system/Pager.module.css";
import adminPage from "../design-system/AdminPage.module.css";
import styles from "./DeletedPetsPage.module.css";

/** The page's address. */
export const DELETED_PETS_PATH = "/pets/deleted";
const AfterCursor = PageCursor.optional();

function pageLink(after: string | undefined): string {
  return after === undefined ? DELETED_PETS_PATH : `${DELETED_PETS_PATH}?${new URLSearchParams({ after }).toString()}`;
}

/** `/pets/deleted` (sessions that may change pets): the deleted pets not yet purged, latest deletion first, each with Restore. */
export function DeletedPetsPage() {
  useDocumentTitle("Recently deleted");
  const [searchParams] = useSearchParams();
  // A cursor the contract would refuse is not sent: the list starts from the latest deletion.
  const parsed = AfterCursor.safeParse(searchParams.get("after") ?? undefined);
  const after = parsed.success ? parsed.data : undefined;
  return (
    <div className={adminPage.page}>
      <div>
        <h1>Recently deleted</h1>
        <p className={formStyles.intro}>
          Deleted pets are kept for 30 days, then purged for good. Restore one to bring it back with its id and fields.
        </p>
      </div>
      <Panel aria-label="Deleted pets">
        <DeletedPetList after={after} />
      </Panel>
    </div>
  );
}

const PURGE_DATE = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

function DeletedPetList({ after }: { after: string | undefined }) {
  const petstore = usePetstoreClient();
  const restorePet = useRestorePet();
  const showStatusMessage = useShowStatusMessage();
  const tableRef = useRef<HTMLTableElement>(null);
  const idPrefix = useId();
  const deletedQuery = petstore.petChanges.listDeletedPets.useQuery({
    queryKey: petQueryKeys.deleted(after),
    queryData: { query: after !== undefined ? { after } : {} },
  });
  const restore = useMutation({
    mutationFn: (deleted: DeletedPet) => restorePet(deleted.pet.id),
    onSuccess: (pet) => {
      showStatusMessage(`Restored ${pet.name}.`, DELETED_PETS_PATH);
      // The row's button is gone with the row: the table keeps the focus.
      tableRef.current?.focus();
    },
  });

  if (deletedQuery.isError || isWaitingOutOutage(deletedQuery)) {
    return <LoadFailure title="The deleted pets could not be loaded." query={deletedQuery} />;
  }
  if (deletedQuery.isPending) return <p aria-busy="true">Loading deleted pets…</p>;

  const { body: deletedPets, headers } = deletedQuery.data;
  if (deletedPets.length === 0) {
    return (
      <Notice
        tone="info"
        action={after !== undefined ? <ButtonLink to={pageLink(undefined)}>First page</ButtonLink> : undefined}
      >
        <p>{after !== undefined ? "No more deleted pets." : "No pets have been deleted in the last 30 days."}</p>
      </Notice>
    );
  }

  const nextAfter = nextPageCursor(headers.get("link"), AfterCursor);
  const restoring = restore.isPending ? restore.variables.pet.id : undefined;
  return (
    <div className={styles.list}>
      <ActionFailure action={restore} failure={`${restore.variables?.pet.name ?? "The pet"} was not restored.`} />
      <div className={table.scroller}>
        <table ref={tableRef} tabIndex={-1} className={table.table} aria-label="Recently deleted">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Deleted</th>
              <th scope="col">By</th>
              <th scope="col">Purged on</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deletedPets.map((deleted) => {
              const nameId = `${idPrefix}-${deleted.pet.id}`;
              return (
                <tr key={deleted.pet.id}>
                  <th scope="row" id={nameId}>
                    {deleted.pet.name}
                  </th>
                  <td>
                    <When at={deleted.deletedAt} />
                  </td>
                  <td>{deleted.deletedBy ?? "someone"}</td>
                  <td>
                    <time dateTime={deleted.purgeAt}>{PURGE_DATE.format(new Date(deleted.purgeAt))}</time>
                  </td>
                  <td>
                    {/* "Restore", described by the row's name, so each row's button says which pet it restores. */}
                    <Button
                      variant="secondary"
                      aria-describedby={nameId}
                      aria-disabled={restore.isPending || undefined}
                      aria-busy={restoring === deleted.pet.id || undefined}
                      onClick={() => !restore.isPending && restore.mutate(deleted)}
                    >
                      Restore
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className={pager.pager}>
        <p className={pager.summary}>
          {deletedPets.length === 1 ? "1 deleted pet" : `${deletedPets.length} deleted pets`}
        </p>
        <div className={pager.pagerLinks}>
          {after !== undefined && <ButtonLink to={pageLink(undefined)}>First page</ButtonLink>}
          {nextAfter !== undefined && <ButtonLink to={pageLink(nextAfter)}>Next page</ButtonLink>}
        </div>
      </div>
    </div>
  );
}
