import type { PetStatus } from "@petstore/contract";

/** Where the app's pages live, for links between them; the status messages they show belong to these pages. */
export const KEYS_PATH = "/keys";
export const ACTIVITY_PATH = "/activity";
export const WEBHOOKS_PATH = "/webhooks";
export const webhookPath = (webhookId: number) => `${WEBHOOKS_PATH}/${webhookId}`;

/** `/pets` filtered as given, e.g. `/pets?categoryId=1&status=available`: the links the Overview's counts lead to. */
export function petsListPath(
  filters: { categoryId?: number | undefined; status?: PetStatus | undefined } = {},
): string {
  const params = new URLSearchParams();
  if (filters.categoryId !== undefined) params.set("categoryId", String(filters.categoryId));
  if (filters.status !== undefined) params.set("status", filters.status);
  const query = params.toString();
  return query ? `/pets?${query}` : "/pets";
}
