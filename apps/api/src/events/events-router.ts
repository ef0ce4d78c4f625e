import { scopeCovers, v1Contract, type Scope } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import { caller } from "../access/caller.js";
import { toErrorBody } from "../base/http-error.js";
import type { RouterOf } from "../base/contract-router.js";
import type { WebhookEventType } from "../activity/webhook-outbox.js";
import { decodePosition, encodePosition, LOGGED_TYPES, type EventLog } from "./event-log.js";

const server = initServer();

/** The types a scope sees: `pet.*` for every scope, `key.*` for admin only. */
export const typesSeenBy = (scope: Scope): readonly WebhookEventType[] =>
  scopeCovers(scope, "admin") ? LOGGED_TYPES : LOGGED_TYPES.filter((type) => type.startsWith("pet."));

/**
 * The types a caller asked for, or the refusal: undefined `asked` is every type the scope sees; a type
 * it may not see is named in the 403.
 */
export function typesFor(scope: Scope, asked: readonly WebhookEventType[] | undefined): { types: readonly WebhookEventType[] } | { forbidden: string } {
  const seen = typesSeenBy(scope);
  if (asked === undefined) return { types: seen };
  const hidden = asked.filter((type) => !seen.includes(type));
  return hidden.length > 0 ? { forbidden: `Events of type ${hidden.join(", ")} need a key with scope admin.` } : { types: asked };
}

/** The event log's feed, beyond the spec: listEvents. */
export function createEventsRouter(log: EventLog): RouterOf<typeof v1Contract.events> {
  return server.router(v1Contract.events, {
    listEvents: async ({ query, req, res }) => {
      const after = query.after === undefined ? undefined : decodePosition(query.after);
      if (query.after !== undefined && !after) {
        const message = "after must be a position from an event or a Link header";
        return { status: 400, body: { ...toErrorBody(400, "VALIDATION_ERROR", `Invalid request: query.after: ${message}.`), issues: [{ field: "query.after", message }] } };
      }
      const chosen = typesFor(caller(res).scope, query.types);
      if ("forbidden" in chosen) {
        res.setHeader("WWW-Authenticate", 'Bearer realm="petstore", error="insufficient_scope", scope="admin"');
        return { status: 403, body: toErrorBody(403, "FORBIDDEN", chosen.forbidden) };
      }
      const outcome = await log.readPage({ after, types: chosen.types, take: query.limit });
      if (outcome.kind === "gone") {
        return { status: 410, body: toErrorBody(410, "GONE", "Events after this position were purged (events are kept 30 days); start again without after.") };
      }
      // Every page carries where to ask next, an empty one too: a client polls this link for ever.
      const next = new URLSearchParams({ limit: String(query.limit) });
      if (query.types !== undefined) next.set("types", query.types.join(","));
      next.set("after", encodePosition(outcome.next));
      res.setHeader("Link", `<${req.baseUrl}${req.path}?${next.toString()}>; rel="next"`);
      return { status: 200, body: outcome.events };
    },
  });
}
