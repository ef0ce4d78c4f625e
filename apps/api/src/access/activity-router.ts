import { adminContract } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import type { ActivityLog } from "../activity/activity-log.js";
import { pageWithNextLink, rowsToRead } from "../base/next-page.js";
import type { RouterOf } from "../base/contract-router.js";

const server = initServer();

/** The activity contract: the activity log, newest first (admin scope, checked before this runs). */
export function createActivityRouter(activity: ActivityLog): RouterOf<typeof adminContract.activity> {
  return server.router(adminContract.activity, {
    listAuditEvents: async ({ query, req, res }) => {
      const { limit, action, targetType, targetId } = query;
      const rows = await activity.listAuditEvents({
        take: rowsToRead(limit),
        before: query.after,
        action,
        targetType,
        targetId,
      });
      return { status: 200, body: pageWithNextLink(rows, limit, { action, targetType, targetId }, req, res) };
    },
  });
}
