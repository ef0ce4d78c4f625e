import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { Events, ListEventsQuery, StreamEventsHeaders, StreamEventsQuery } from "./event-schemas.js";
import type { RouteMetadata } from "./route-metadata.js";
import { ErrorBody } from "./schemas.js";

const c = initContract();

/**
 * The event log, beyond the spec (which says events are "not shown"): tag `events`, `x-stability: beta`,
 * composed under `/v1` by `v1Contract`. The events the webhooks carry, to poll forward.
 */
export const eventsContract = c.router({
  listEvents: {
    method: "GET",
    path: "/events",
    query: ListEventsQuery,
    metadata: { credential: "bearer", scope: "read", tag: "events", stability: "beta" } satisfies RouteMetadata,
    summary: "List events",
    description:
      "Beyond the spec: the events of the last 30 days, oldest first, each as its webhook carries it with its `id` and " +
      '`position`. Every page, an empty one too, carries `Link: <...>; rel="next"`: poll that link for ever and no event ' +
      "is missed or seen twice, even when changes commit out of order. Scope `read` sees `pet.*` events; `key.*` events " +
      "need scope `admin`. A position older than the oldest event kept: `410` (start again without `after`).",
    responses: { 200: Events, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 410: ErrorBody },
  },
  streamEvents: {
    method: "GET",
    path: "/events/stream",
    query: StreamEventsQuery,
    headers: StreamEventsHeaders,
    metadata: { credential: "bearer", scope: "read", tag: "events", stability: "beta" } satisfies RouteMetadata,
    summary: "Stream events",
    description:
      "Beyond the spec: the events as they happen, as Server-Sent Events (`id:` the event's position, `event:` its type, " +
      "`data:` the event as `listEvents` answers it), on every replica within 2 seconds of the change. With `Last-Event-ID` " +
      "(or `lastEventId`), the events after it first. A comment every 15 seconds keeps it open. It ends (with a `retry:` " +
      "hint) when its credential stops being valid, or when the replica shuts down: reconnect with the next credential " +
      "and `Last-Event-ID`. The scopes are `listEvents`'s.",
    responses: {
      200: c.otherResponse({ contentType: "text/event-stream", body: z.string() }),
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      410: ErrorBody,
      503: ErrorBody,
    },
  },
});
