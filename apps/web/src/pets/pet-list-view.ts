import { LIMIT_DEFAULT, LIMIT_MAX, ListPetsQuery, PetName, PetStatus } from "@petstore/contract";

/**
 * The page sizes the select offers (20 / 50 / 100, docs/interface.md): the contract's
 * default, half its maximum, and its maximum. The contract allows any 1..100;
 * three steps are enough to choose from, and each is one the API accepts.
 */
export const PAGE_SIZES: readonly number[] = [LIMIT_DEFAULT, LIMIT_MAX / 2, LIMIT_MAX];

/** listPets' query parameters, one schema each (the query as a whole also refuses `after` with `before`). */
export const LIST_PETS_PARAMETERS = ListPetsQuery.innerType().shape;

/**
 * What the list shows: a listPets query, as the contract parses it, kept in the URL (`name`, `status`,
 * `categoryId`, `limit`, and `after` or `before`) so it can be bookmarked. `count` is the list's own
 * business, not the view's.
 */
export type PetListView = Omit<ListPetsQuery, "count">;

export function readPetListView(params: URLSearchParams): PetListView {
  // A value the contract or the select would not accept falls back to the default.
  const status = PetStatus.safeParse(params.get("status"));
  const limit = Number(params.get("limit"));
  const after = LIST_PETS_PARAMETERS.after.safeParse(params.get("after") ?? undefined);
  const before = LIST_PETS_PARAMETERS.before.safeParse(params.get("before") ?? undefined);
  const name = PetName.safeParse(params.get("name") ?? undefined);
  const categoryId = LIST_PETS_PARAMETERS.categoryId.safeParse(params.get("categoryId") ?? undefined);
  const afterId = after.success ? after.data : undefined;
  return {
    name: name.success ? name.data : undefined,
    status: status.success ? status.data : undefined,
    categoryId: categoryId.success ? categoryId.data : undefined,
    limit: PAGE_SIZES.includes(limit) ? limit : LIMIT_DEFAULT,
    after: afterId,
    // The API refuses both at once: `after` wins, as it did before `before` existed.
    before: afterId === undefined && before.success ? before.data : undefined,
  };
}

export function toSearchParams(view: PetListView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.name !== undefined) params.set("name", view.name);
  if (view.status) params.set("status", view.status);
  if (view.categoryId !== undefined) params.set("categoryId", String(view.categoryId));
  params.set("limit", String(view.limit));
  if (view.after !== undefined) params.set("after", String(view.after));
  else if (view.before !== undefined) params.set("before", String(view.before));
  return params;
}

/**
 * "1,204 pets", "1 pet", "10,000+ pets": the list's total as the API's `X-Total-Count` gives it (exact, or
 * a floor followed by `+` for a name search); undefined when the API sent none it could read.
 */
export function totalPetsText(header: string | null): string | undefined {
  const match = header === null ? null : /^\s*(\d+)(\+?)\s*$/.exec(header);
  if (!match) return undefined;
  const count = Number(match[1]);
  if (!Number.isSafeInteger(count)) return undefined;
  const atLeast = match[2] === "+";
  return `${count.toLocaleString("en")}${atLeast ? "+" : ""} ${count === 1 && !atLeast ? "pet" : "pets"}`;
}
