import { LIMIT_DEFAULT, ListPetsQuery, PetStatus } from "@petstore/contract";

/** The page sizes staff can pick; the contract allows any 1..100, the select offers these. */
export const PAGE_SIZES = [20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** What the list shows, as kept in the URL (`status`, `limit`, `after`) so it can be bookmarked. */
export interface PetListView {
  status: PetStatus | undefined;
  limit: PageSize;
  /** Show pets with an id greater than this (the API's `after` pagination). */
  after: number | undefined;
}

function isPageSize(value: number): value is PageSize {
  return (PAGE_SIZES as readonly number[]).includes(value);
}

/** Reads the view from the URL; a value the contract or the select would not accept falls back to the default. */
export function readPetListView(params: URLSearchParams): PetListView {
  const status = PetStatus.safeParse(params.get("status"));
  const limit = Number(params.get("limit"));
  const after = ListPetsQuery.shape.after.safeParse(params.get("after") ?? undefined);
  return {
    status: status.success ? status.data : undefined,
    limit: isPageSize(limit) ? limit : (LIMIT_DEFAULT as PageSize),
    after: after.success ? after.data : undefined,
  };
}

export function toSearchParams(view: PetListView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.status) params.set("status", view.status);
  params.set("limit", String(view.limit));
  if (view.after !== undefined) params.set("after", String(view.after));
  return params;
}
