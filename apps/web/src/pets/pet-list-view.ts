import { LIMIT_DEFAULT, LIMIT_MAX, ListPetsQuery, PetName, PetStatus } from "@petstore/contract";

/**
 * The page sizes the select offers (20 / 50 / 100, docs/interface.md): the contract's
 * default, half its maximum, and its maximum. The contract allows any 1..100;
 * three steps are enough to choose from, and each is one the API accepts.
 */
export const PAGE_SIZES: readonly number[] = [LIMIT_DEFAULT, LIMIT_MAX / 2, LIMIT_MAX];

/**
 * What the list shows is a listPets query, as the contract parses it, kept in
 * the URL (`name`, `status`, `limit`, `after`) so it can be bookmarked.
 */
export function readPetListView(params: URLSearchParams): ListPetsQuery {
  // A value the contract or the select would not accept falls back to the default.
  const status = PetStatus.safeParse(params.get("status"));
  const limit = Number(params.get("limit"));
  const after = ListPetsQuery.shape.after.safeParse(params.get("after") ?? undefined);
  const name = PetName.safeParse(params.get("name") ?? undefined);
  return {
    name: name.success ? name.data : undefined,
    status: status.success ? status.data : undefined,
    limit: PAGE_SIZES.includes(limit) ? limit : LIMIT_DEFAULT,
    after: after.success ? after.data : undefined,
  };
}

export function toSearchParams(view: ListPetsQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (view.name !== undefined) params.set("name", view.name);
  if (view.status) params.set("status", view.status);
  params.set("limit", String(view.limit));
  if (view.after !== undefined) params.set("after", String(view.after));
  return params;
}
