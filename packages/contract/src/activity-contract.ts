import { initContract } from "@ts-rest/core";
import { AuditEvents, ListAuditEventsQuery } from "./access-schemas.js";
import type { RouteMetadata } from "./route-metadata.js";
import { ErrorBody } from "./schemas.js";

const c = initContract();

/** The activity log. Composed under `/admin/v1` by `adminContract`. */
export const activityContract = c.router({
  listAuditEvents: {
    method: "GET",
    path: "/audit-events",
    query: ListAuditEventsQuery,
    metadata: { credential: "bearer", scope: "admin", tag: "activity" } satisfies RouteMetadata,
    summary: "Activity log",
    description:
      "Audit events, newest first, optionally filtered by action and target. A page that may have more carries " +
      '`Link: <...>; rel="next"`.',
    responses: { 200: AuditEvents, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
  },
});
