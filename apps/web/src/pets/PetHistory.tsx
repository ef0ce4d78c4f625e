import { PageCursor } from "@petstore/contract";
import { useId, type ReactNode } from "react";
import { When } from "../access/When.js";
import { nextPageCursor } from "../api/next-page-cursor.js";
import { petQueryKeys, usePetstoreClient } from "../api/petstore-client.js";
import { useCategories } from "../categories/category-names.js";
import { Button } from "../design-system/Button.js";
import { Panel } from "../design-system/Panel.js";
import { isWaitingOutOutage, LoadFailure } from "../design-system/LoadFailure.js";
import { historySentence } from "./history-sentences.js";
import styles from "./PetDetailPage.module.css";

/** Entries per page of history. */
export const HISTORY_PAGE_SIZE = 20;
const AfterCursor = PageCursor.optional();

/**
 * `History`: what was done to the pet, newest first, in sentences (categories by name), each with when;
 * older pages on demand.
 */
export function PetHistory({ petId }: { petId: number }) {
  const headingId = useId();
  const petstore = usePetstoreClient();
  const { label: categoryLabel } = useCategories();
  const historyQuery = petstore.petChanges.listPetHistory.useInfiniteQuery({
    queryKey: petQueryKeys.history(petId),
    queryData: ({ pageParam }) => ({
      params: { petId },
      query: { limit: HISTORY_PAGE_SIZE, ...(typeof pageParam === "string" ? { after: pageParam } : {}) },
    }),
    initialPageParam: undefined,
    getNextPageParam: (lastPage: { headers: Headers }) => nextPageCursor(lastPage.headers.get("link"), AfterCursor),
  });

  let content: ReactNode;
  if (historyQuery.isError || isWaitingOutOutage(historyQuery)) {
    content = <LoadFailure title="The history could not be loaded." query={historyQuery} />;
  } else if (historyQuery.isPending) {
    content = <p aria-busy="true">Loading history…</p>;
  } else {
    const entries = historyQuery.data.pages.flatMap((page) => page.body);
    content =
      entries.length === 0 ? (
        <p className={styles.muted}>Nothing is recorded for this pet yet.</p>
      ) : (
        <>
          <ol className={styles.history}>
            {entries.map((entry, index) => (
              <li key={`${entry.at}-${index}`}>
                <span>{historySentence(entry, categoryLabel)}</span> <When at={entry.at} />
              </li>
            ))}
          </ol>
          {historyQuery.hasNextPage && (
            <div>
              <Button
                variant="secondary"
                onClick={() => void (historyQuery.isFetchingNextPage || historyQuery.fetchNextPage())}
                aria-disabled={historyQuery.isFetchingNextPage || undefined}
                aria-busy={historyQuery.isFetchingNextPage || undefined}
              >
                Show older changes
              </Button>
            </div>
          )}
        </>
      );
  }

  return (
    <Panel aria-labelledby={headingId} className={styles.historyPanel}>
      <h2 id={headingId}>History</h2>
      {content}
    </Panel>
  );
}
