import { adminContract, type Delivery, type Webhook } from "@petstore/contract";
import { initServer } from "@ts-rest/express";
import type { Request, Response } from "express";
import { auditContext, caller } from "../access/caller.js";
import { newWebhookEventId } from "../activity/event-types.js";
import { fieldRefusedAnswer, notFoundAnswer, toErrorBody } from "../base/http-error.js";
import { pageWithNextLink, rowsToRead } from "../base/next-page.js";
import { DestinationRefused, resolveDestination, type DestinationRules } from "./destination.js";
import type { WebhookSender } from "./sender.js";
import { newWebhookSecret, secretPrefix } from "./signature.js";
import type { DeliveryRecord, WebhookEndpointRecord, WebhookRepository } from "./webhook-repository.js";
import type { RouterOf } from "../base/contract-router.js";

/** While a rotation overlaps, deliveries carry a signature with the old secret too. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** listWebhooks answers at most this many (the newest). */
const LIST_WEBHOOKS_MAX = 100;

/** An endpoint as answered: never its secret, only its first 10 characters. */
export const toWebhook = (endpoint: WebhookEndpointRecord): Webhook => ({
  id: endpoint.id,
  url: endpoint.url,
  description: endpoint.description,
  eventTypes: endpoint.eventTypes.filter((type) => type !== "webhook.test"),
  enabled: endpoint.enabled,
  disabledReason: endpoint.disabledReason,
  createdAt: endpoint.createdAt.toISOString(),
  createdBy: endpoint.createdBy,
  secretPrefix: secretPrefix(endpoint.secret),
});

export const toDelivery = (delivery: DeliveryRecord): Delivery => ({
  ...delivery,
  createdAt: delivery.createdAt.toISOString(),
});

export interface WebhookHandlerDeps {
  repository: WebhookRepository;
  rules: DestinationRules;
  /** Told when a test event or a resend is due now, so this process sends it without waiting for its next look. */
  sender?: Pick<WebhookSender, "poke"> | undefined;
}

const server = initServer();

/** The webhooks contract (admin scope, checked before any of these runs). */
export function createWebhooksRouter({
  repository,
  rules,
  sender,
}: WebhookHandlerDeps): RouterOf<typeof adminContract.webhooks> {
  /** Undefined when the URL may be registered; else the 400. Resolved now: a host that does not resolve is refused. */
  async function checkUrl(url: string) {
    try {
      await resolveDestination(url, rules);
      return undefined;
    } catch (error) {
      if (error instanceof DestinationRefused) return fieldRefusedAnswer("body.url", error.message);
      throw error;
    }
  }
  const audit = (req: Pick<Request, "id" | "ip">, res: Response) => auditContext(req, res);

  return server.router(adminContract.webhooks, {
    listWebhooks: async () => ({
      status: 200,
      body: (await repository.listEndpoints()).slice(0, LIST_WEBHOOKS_MAX).map(toWebhook),
    }),

    createWebhook: async ({ body, req, res }) => {
      const refused = await checkUrl(body.url);
      if (refused) return refused;
      const secret = newWebhookSecret();
      const endpoint = await repository.createEndpoint(
        {
          url: body.url,
          description: body.description || null,
          eventTypes: body.eventTypes ?? [],
          secret,
          createdBy: caller(res).name,
        },
        audit(req, res),
      );
      return { status: 201, body: { webhook: toWebhook(endpoint), secret } };
    },

    getWebhook: async ({ params }) => {
      const endpoint = await repository.findEndpoint(params.webhookId);
      return endpoint
        ? { status: 200, body: toWebhook(endpoint) }
        : notFoundAnswer(`No webhook endpoint has id ${params.webhookId}.`);
    },

    updateWebhook: async ({ params, body, req, res }) => {
      if (body.url !== undefined) {
        const refused = await checkUrl(body.url);
        if (refused) return refused;
      }
      const description = body.description === undefined ? undefined : body.description || null;
      const endpoint = await repository.updateEndpoint(params.webhookId, { ...body, description }, audit(req, res));
      return endpoint
        ? { status: 200, body: toWebhook(endpoint) }
        : notFoundAnswer(`No webhook endpoint has id ${params.webhookId}.`);
    },

    deleteWebhook: async ({ params, req, res }) => {
      const deleted = await repository.deleteEndpoint(params.webhookId, audit(req, res));
      return deleted
        ? { status: 204, body: undefined }
        : notFoundAnswer(`No webhook endpoint has id ${params.webhookId}.`);
    },

    rotateWebhookSecret: async ({ params, req, res }) => {
      const secret = newWebhookSecret();
      const endpoint = await repository.rotateSecret(
        params.webhookId,
        secret,
        new Date(Date.now() + ROTATION_OVERLAP_MS),
        audit(req, res),
      );
      return endpoint
        ? { status: 200, body: { webhook: toWebhook(endpoint), secret } }
        : notFoundAnswer(`No webhook endpoint has id ${params.webhookId}.`);
    },

    sendTestEvent: async ({ params }) => {
      const endpoint = await repository.findEndpoint(params.webhookId);
      if (!endpoint) return notFoundAnswer(`No webhook endpoint has id ${params.webhookId}.`);
      const data = JSON.stringify({ webhookId: endpoint.id, message: "A test event, sent on request." });
      const delivery = await repository.createTestDelivery(endpoint.id, newWebhookEventId(), data, new Date());
      sender?.poke();
      return { status: 202, body: toDelivery(delivery) };
    },

    listDeliveries: async ({ params, query, req, res }) => {
      if (!(await repository.findEndpoint(params.webhookId)))
        return notFoundAnswer(`No webhook endpoint has id ${params.webhookId}.`);
      const { limit, status } = query;
      const rows = await repository.listDeliveries({
        webhookId: params.webhookId,
        take: rowsToRead(limit),
        before: query.after,
        status,
      });
      return { status: 200, body: pageWithNextLink(rows.map(toDelivery), limit, { status }, req, res) };
    },

    resendDelivery: async ({ params }) => {
      const delivery = await repository.resendDelivery(params.webhookId, params.deliveryId, new Date());
      if (!delivery)
        return notFoundAnswer(`Webhook endpoint ${params.webhookId} has no delivery with id ${params.deliveryId}.`);
      if (delivery === "being sent") {
        const message = `Delivery ${params.deliveryId} is being sent now; resend it once that attempt is recorded.`;
        return { status: 409, body: toErrorBody(409, "CONFLICT", message) };
      }
      sender?.poke();
      return { status: 202, body: toDelivery(delivery) };
    },

    recoverWebhook: async ({ params, body }) => {
      const endpoint = await repository.findEndpoint(params.webhookId);
      if (!endpoint) return notFoundAnswer(`No webhook endpoint has id ${params.webhookId}.`);
      if (!endpoint.enabled)
        return {
          status: 409,
          body: toErrorBody(409, "CONFLICT", "The endpoint is disabled: enable it, then recover its events."),
        };
      const at = new Date();
      const queued = await repository.recoverEvents(
        endpoint.id,
        new Date(body.since),
        body.until === undefined ? at : new Date(body.until),
        at,
      );
      if (queued === null) return notFoundAnswer(`No webhook endpoint has id ${params.webhookId}.`);
      if (queued > 0) sender?.poke();
      return { status: 202, body: { queued } };
    },
  });
}
