import { AuditAction, ListAuditEventsQuery } from "@petstore/contract";

/** What the Activity page shows, kept in the URL (`action`, `after`) so it can be bookmarked. */
export interface ActivityView {
  action: AuditAction | undefined;
  after: number | undefined;
}

/** A value the contract would refuse falls back to the default: all actions, from the newest. */
export function readActivityView(params: URLSearchParams): ActivityView {
  const action = AuditAction.safeParse(params.get("action"));
  const after = ListAuditEventsQuery.shape.after.safeParse(params.get("after") ?? undefined);
  return { action: action.success ? action.data : undefined, after: after.success ? after.data : undefined };
}

export function activityLink(view: ActivityView): string {
  const params = new URLSearchParams();
  if (view.action) params.set("action", view.action);
  if (view.after !== undefined) params.set("after", String(view.after));
  const query = params.toString();
  return query ? `/activity?${query}` : "/activity";
}
