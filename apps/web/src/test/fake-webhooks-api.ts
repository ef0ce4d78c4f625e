import type { Delivery, NewWebhook, Webhook, WebhookChanges } from "@petstore/contract";
import { errorResponse, jsonResponse } from "./render-app.js";

export const WEBHOOK_SECRET = `whsec_${"A".repeat(32)}`;
export const ROTATED_SECRET = `whsec_${"B".repeat(32)}`;

export function webhook(id: number, url: string, changes: Partial<Webhook> = {}): Webhook {
  return {
    id,
    url,
    description: null,
    eventTypes: [],
    enabled: true,
    disabledReason: null,
    createdAt: "2026-11-20T09:00:00.000Z",
    createdBy: "Ops lead",
    secretPrefix: "whsec_AAAA",
    ...changes,
  };
}

export function delivery(id: number, webhookId: number, changes: Partial<Delivery> = {}): Delivery {
  return {
    id,
    webhookId,
    eventId: `msg_${id}`,
    eventType: "pet.created",
    status: "succeeded",
    createdAt: `2026-11-24T10:${String(id % 60).padStart(2, "0")}:00.000Z`,
    attempts: [
      {
        at: `2026-11-24T10:${String(id % 60).padStart(2, "0")}:01.000Z`,
        statusCode: 200,
        error: null,
        durationMs: 12,
        answer: "ok",
      },
    ],
    ...changes,
  };
}

/**
 * The access API's webhook operations over in-memory lists, as the server
 * answers them (deliveries newest first, a page of `pageSize` with a next
 * link); anything else is an empty list.
 */
export function webhooksApi(initial: Webhook[], initialDeliveries: Delivery[] = [], { pageSize = 20 } = {}) {
  const webhooks = [...initial];
  const deliveries = [...initialDeliveries];
  const handler = async (request: Request) => {
    const url = new URL(request.url);
    const { pathname } = url;
    if (pathname === "/admin/v1/webhooks") {
      if (request.method === "GET") return jsonResponse(200, webhooks);
      const body = (await request.json()) as NewWebhook;
      const created = webhook(100 + webhooks.length, body.url, {
        description: body.description ?? null,
        eventTypes: body.eventTypes ?? [],
      });
      webhooks.unshift(created);
      return jsonResponse(201, { webhook: created, secret: WEBHOOK_SECRET });
    }
    const one = /^\/admin\/v1\/webhooks\/(\d+)(\/.*)?$/.exec(pathname);
    if (!one) return jsonResponse(200, []);
    const webhookId = Number(one[1]);
    const rest = one[2] ?? "";
    const index = webhooks.findIndex((candidate) => candidate.id === webhookId);
    if (index < 0) return errorResponse(404, "NOT_FOUND", `No webhook endpoint has id ${webhookId}.`);
    const current = webhooks[index]!;
    if (rest === "" && request.method === "GET") return jsonResponse(200, current);
    if (rest === "" && request.method === "PATCH") {
      const changes = (await request.json()) as WebhookChanges;
      webhooks[index] = {
        ...current,
        ...(changes.enabled !== undefined ? { enabled: changes.enabled, disabledReason: null } : {}),
      };
      return jsonResponse(200, webhooks[index]);
    }
    if (rest === "" && request.method === "DELETE") {
      webhooks.splice(index, 1);
      return new Response(null, { status: 204 });
    }
    if (rest === "/rotate-secret") {
      webhooks[index] = { ...current, secretPrefix: "whsec_BBBB" };
      return jsonResponse(200, { webhook: webhooks[index], secret: ROTATED_SECRET });
    }
    if (rest === "/test") {
      const id = Math.max(0, ...deliveries.map((candidate) => candidate.id)) + 1;
      const queued = delivery(id, webhookId, { eventType: "webhook.test", status: "pending", attempts: [] });
      deliveries.unshift(queued);
      return jsonResponse(202, queued);
    }
    if (rest === "/recover") {
      // The failed deliveries since `since` are queued again; a disabled endpoint is refused, as the API does.
      if (!current.enabled)
        return errorResponse(409, "CONFLICT", "The endpoint is disabled: enable it, then recover its events.");
      const { since } = (await request.json()) as { since: string };
      const again = deliveries.filter(
        (candidate) =>
          candidate.webhookId === webhookId && candidate.status === "failed" && candidate.createdAt >= since,
      );
      for (const found of again) found.status = "pending";
      return jsonResponse(202, { queued: again.length });
    }
    const resend = /^\/deliveries\/(\d+)\/resend$/.exec(rest);
    if (resend) {
      const found = deliveries.find((candidate) => candidate.id === Number(resend[1]));
      return found ? jsonResponse(202, found) : errorResponse(404, "NOT_FOUND", "No such delivery.");
    }
    if (rest === "/deliveries") {
      const limit = Number(url.searchParams.get("limit") ?? pageSize);
      const after = url.searchParams.get("after");
      const mine = deliveries.filter(
        (candidate) => candidate.webhookId === webhookId && (after === null || candidate.id < Number(after)),
      );
      const page = mine.slice(0, limit);
      const last = page.at(-1);
      const headers: Record<string, string> =
        mine.length > limit && last
          ? { Link: `</admin/v1/webhooks/${webhookId}/deliveries?limit=${limit}&after=${last.id}>; rel="next"` }
          : {};
      return jsonResponse(200, page, headers);
    }
    return jsonResponse(200, []);
  };
  return { webhooks, deliveries, handler };
}
