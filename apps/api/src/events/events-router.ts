import { scopeCovers, v1Contract, type Scope } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import type { Request } from "express";
import { bearerToken, secretDigest } from "../access/bearer.js";
import { caller, type Caller } from "../access/caller.js";
import type { IssuedKeys } from "../access/issued-keys.js";
import { toErrorBody } from "../base/http-error.js";
import type { RouterOf } from "../base/contract-router.js";
import type { WebhookEventType } from "../activity/event-types.js";
import { decodePosition, encodePosition, LOGGED_TYPES, type EventLog } from "./event-log.js";
import type { CredentialCheck, EventStreams } from "./event-streams.js";

const server = initServer();

/** The types a scope sees: `pet.*` for every scope, `key.*` for admin only. */
export const typesSeenBy = (scope: Scope): readonly WebhookEventType[] =>
  scopeCovers(scope, "admin") ? LOGGED_TYPES : LOGGED_TYPES.filter((type) => type.startsWith("pet."));

/**
 * The types a caller asked for, or the refusal: undefined `asked` is every type the scope sees; a type
 * it may not see is named in the 403.
 */
export function typesFor(
  scope: Scope,
  asked: readonly WebhookEventType[] | undefined,
): { types: readonly WebhookEventType[] } | { forbidden: string } {
  const seen = typesSeenBy(scope);
  if (asked === undefined) return { types: seen };
  const hidden = asked.filter((type) => !seen.includes(type));
  return hidden.length > 0
    ? { forbidden: `Events of type ${hidden.join(", ")} need a key with scope admin.` }
    : { types: asked };
}

export interface EventsRouterDeps {
  log: EventLog;
  streams: EventStreams;
  /** The process's issued keys and tokens: a stream asks them again whether its credential still holds. */
  issuedKeys: Pick<IssuedKeys, "whenFresh" | "find">;
  /** True from SIGTERM on: new streams are refused. */
  isStopping: () => boolean;
  now: () => number;
  /** Told once per stream, when it ends. */
  onStreamEnded: (summary: {
    durationMs: number;
    eventsSent: number;
    reason: string;
    requestId: string | undefined;
  }) => void;
}

const BAD_POSITION = (field: string) => {
  const message = `${field.replace(/^\w+\./, "")} must be a position from an event or a Link header`;
  return {
    status: 400 as const,
    body: {
      ...toErrorBody(400, "VALIDATION_ERROR", `Invalid request: ${field}: ${message}.`),
      issues: [{ field, message }],
    },
  };
};
const GONE_MESSAGE = "Events after this position were purged (events are kept 30 days); start again without after.";

/**
 * Whether a stream's credential still holds: a token's or key's expiry, a key revoked or a session ended
 * (gone from the issued set, which every replica rereads within a second), or a scope lowered below what
 * the stream's types need. A key of API_KEYS holds until the process restarts with other keys.
 */
function credentialCheck(
  req: Request,
  who: Caller,
  needs: Scope,
  { issuedKeys, now }: Pick<EventsRouterDeps, "issuedKeys" | "now">,
): CredentialCheck {
  const expiresAt = who.expiresAt?.getTime();
  if (who.issuedKeyId === undefined && who.sessionId === undefined && who.staffId === null)
    return () => expiresAt === undefined || expiresAt > now();
  const digest = secretDigest(bearerToken(req.headers.authorization) ?? "").toString("hex");
  return async () => {
    if (expiresAt !== undefined && expiresAt <= now()) return false;
    await issuedKeys.whenFresh();
    const key = issuedKeys.find(digest);
    return key !== undefined && scopeCovers(key.scope, needs);
  };
}

/** The event log, beyond the spec: listEvents (the feed) and streamEvents (Server-Sent Events). */
export function createEventsRouter(deps: EventsRouterDeps): RouterOf<typeof v1Contract.events> {
  const { log, streams } = deps;
  return server.router(v1Contract.events, {
    listEvents: async ({ query, req, res }) => {
      const after = query.after === undefined ? undefined : decodePosition(query.after);
      if (query.after !== undefined && !after) return BAD_POSITION("query.after");
      const chosen = typesFor(caller(res).scope, query.types);
      if ("forbidden" in chosen) {
        res.setHeader("WWW-Authenticate", 'Bearer realm="petstore", error="insufficient_scope", scope="admin"');
        return { status: 403, body: toErrorBody(403, "FORBIDDEN", chosen.forbidden) };
      }
      const outcome = await log.readPage({ after, types: chosen.types, take: query.limit });
      if (outcome.kind === "gone") {
        return { status: 410, body: toErrorBody(410, "GONE", GONE_MESSAGE) };
      }
      // Every page carries where to ask next, an empty one too: a client polls this link for ever.
      const next = new URLSearchParams({ limit: String(query.limit) });
      if (query.types !== undefined) next.set("types", query.types.join(","));
      next.set("after", encodePosition(outcome.next));
      res.setHeader("Link", `<${req.baseUrl}${req.path}?${next.toString()}>; rel="next"`);
      return { status: 200, body: outcome.events };
    },

    streamEvents: async ({ query, headers, req, res }) => {
      const fromHeader = headers["last-event-id"] !== undefined;
      const lastText = headers["last-event-id"] ?? query.lastEventId;
      const lastEventId = lastText === undefined ? undefined : decodePosition(lastText);
      if (lastText !== undefined && !lastEventId)
        return BAD_POSITION(fromHeader ? "header.Last-Event-ID" : "query.lastEventId");
      const who = caller(res);
      const chosen = typesFor(who.scope, query.types);
      if ("forbidden" in chosen) {
        res.setHeader("WWW-Authenticate", 'Bearer realm="petstore", error="insufficient_scope", scope="admin"');
        return { status: 403, body: toErrorBody(403, "FORBIDDEN", chosen.forbidden) };
      }
      if (deps.isStopping()) {
        res.setHeader("Retry-After", "1");
        return {
          status: 503,
          body: toErrorBody(
            503,
            "UNAVAILABLE",
            "This server is shutting down; reconnect (through the balancer) after Retry-After seconds.",
          ),
        };
      }
      if (lastEventId && (await log.readPage({ after: lastEventId, types: chosen.types, take: 1 })).kind === "gone") {
        return {
          status: 410,
          body: toErrorBody(410, "GONE", GONE_MESSAGE.replace("without after", "without Last-Event-ID")),
        };
      }
      const needs: Scope = chosen.types.some((type) => type.startsWith("key.")) ? "admin" : "read";
      const opened = await streams.open({
        lastEventId,
        types: chosen.types,
        stillValid: credentialCheck(req, who, needs, deps),
        issuedKeyId: who.issuedKeyId,
        onEnd: (summary) =>
          deps.onStreamEnded({ ...summary, requestId: typeof req.id === "string" ? req.id : undefined }),
      });
      if (opened === "full" || opened === "draining") {
        res.setHeader("Retry-After", opened === "full" ? "5" : "1");
        const message =
          opened === "full"
            ? "This server has as many event streams open as it takes; reconnect after Retry-After seconds."
            : "This server is shutting down; reconnect (through the balancer) after Retry-After seconds.";
        return { status: 503, body: toErrorBody(503, "UNAVAILABLE", message) };
      }
      // Nothing may compress or hold back what is written: each event goes out as it comes.
      res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
      res.setHeader("Cache-Control", "no-cache, no-transform");
      res.setHeader("X-Accel-Buffering", "no");
      // The connection ends with the stream: a drain that ends it then finds no idle keep-alive socket to wait out.
      res.setHeader("Connection", "close");
      res.flushHeaders();
      req.socket.setNoDelay(true);
      res.on("close", () => opened.body.destroy());
      // The dispatcher pipes a Stream body into the response (http/operation-dispatch.ts); ts-rest types it as the text it becomes.
      return { status: 200, body: opened.body as unknown as string };
    },
  });
}
