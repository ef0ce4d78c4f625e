import { describeFailure, isStoreUnavailable } from "../api/api-errors.js";
import { Button } from "./Button.js";
import { Notice } from "./Notice.js";

/** The parts of a TanStack query result a failure notice needs. */
interface FailingQuery {
  /** Set once the query gave up. */
  error: unknown;
  /** The last failure, set while the query is still retrying. */
  failureReason: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * A query still retrying a store outage on its own, with nothing to show yet.
 * It may wait a long while, so its page says why instead of showing a loader.
 */
export function isWaitingOutOutage(query: { isPending: boolean; failureReason: unknown }): boolean {
  return query.isPending && isStoreUnavailable(query.failureReason);
}

/**
 * A failed query: what failed, why in words staff can act on, and a Retry
 * button. While the query is asking again (on its own or after Retry) the
 * sentence says so and Retry waits.
 */
export function LoadFailure({ title, query }: { title: string; query: FailingQuery }) {
  return (
    <Notice
      tone="error"
      role="alert"
      action={
        <Button variant="secondary" onClick={() => void query.refetch()} disabled={query.isFetching}>
          Retry
        </Button>
      }
    >
      <p>
        <strong>{title}</strong> {describeFailure(query.error ?? query.failureReason, { retrying: query.isFetching })}
      </p>
    </Notice>
  );
}
