import type { Delivery } from "@petstore/contract";

/** How often deliveries are read again while one of them is still pending. */
export const PENDING_REFRESH_MS = 1_000;

/** A page of deliveries is read again while any of them is pending: the sender settles it without telling the page. */
export const refreshWhilePending = (query: { state: { data?: { body: Delivery[] } | undefined } }): number | false =>
  query.state.data?.body.some((delivery) => delivery.status === "pending") ? PENDING_REFRESH_MS : false;
